/**
 * Image folders laid out as torchvision's {@code ImageFolder} expects ({@code root/<class>/<file>}),
 * found in the same order with the same labels: {@link dev.stoker.formats.folder.ImageFolder} and
 * its dataset of (bytes, label). Decoding is the vision module's.
 */
package dev.stoker.formats.folder;
