package dev.stoker.formats.tar;

import java.util.List;

/**
 * Consecutive members of a shard that share a key: the raw form of a sample.
 *
 * @param key     the members' key (see {@link SampleKeys})
 * @param members the members, in shard order
 */
record MemberGroup(String key, List<TarMember> members) {
}
