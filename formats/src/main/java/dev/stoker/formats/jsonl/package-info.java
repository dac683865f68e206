/**
 * JSONL text (one JSON object per line): {@link dev.stoker.formats.jsonl.JsonlDataset}, random
 * access to line {@code i} of a plain file through a line-offset sidecar, as a field's string or
 * the line's bytes; {@link dev.stoker.formats.jsonl.JsonlStream}, plain or gzip files read in one
 * pass and split across workers and ranks, with no index. One field is read out of a line by a
 * small strict parser of this package (the module depends on the JDK alone).
 */
package dev.stoker.formats.jsonl;
