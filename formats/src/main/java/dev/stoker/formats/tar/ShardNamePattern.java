package dev.stoker.formats.tar;

import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The file-name half of a shard name pattern ({@code shard-%06d.tar}, {@code part-%05d-%06d.tar}):
 * which names in a folder are shards of it, and the name of the set's manifest. A name belongs to
 * the pattern only when formatting the pattern with the numbers read back from the name gives the
 * name again, so {@code shard-7.tar} is not a shard of {@code shard-%06d.tar}, and nothing but
 * names the pattern writes is ever taken for one (the writer deletes old shards by this test).
 */
final class ShardNamePattern {
    // A number conversion as ShardWriter's patterns use them: flags, width, then d, x, X, o or s.
    private static final Pattern CONVERSION = Pattern.compile("%(\\d+\\$)?([-#+ 0,(]*)(\\d*)([dxXos])");

    private final String pattern;
    private final Pattern regex;
    private final int[] radix;
    private final int[] argument;
    private final int arguments;

    private ShardNamePattern(String pattern, Pattern regex, int[] radix, int[] argument) {
        this.pattern = pattern;
        this.regex = regex;
        this.radix = radix;
        this.argument = argument;
        this.arguments = java.util.Arrays.stream(argument).max().orElse(-1) + 1;
    }

    /**
     * The pattern of file names {@code fileNamePattern} (no folder in it).
     *
     * @throws IllegalArgumentException when it holds a conversion other than a number (d, x, X, o, s)
     */
    static ShardNamePattern of(String fileNamePattern) {
        StringBuilder regex = new StringBuilder();
        List<Integer> radix = new ArrayList<>();
        List<Integer> argument = new ArrayList<>();
        int at = 0;
        while (at < fileNamePattern.length()) {
            int pct = fileNamePattern.indexOf('%', at);
            if (pct < 0) {
                regex.append(Pattern.quote(fileNamePattern.substring(at)));
                break;
            }
            regex.append(Pattern.quote(fileNamePattern.substring(at, pct)));
            if (fileNamePattern.startsWith("%%", pct)) {
                regex.append("%");
                at = pct + 2;
                continue;
            }
            Matcher m = CONVERSION.matcher(fileNamePattern).region(pct, fileNamePattern.length());
            if (!m.lookingAt()) {
                throw new IllegalArgumentException("shard name pattern \"" + fileNamePattern + "\": only number"
                        + " conversions (%d, %06d, %x, ...) may name the shards, not \""
                        + fileNamePattern.substring(pct, Math.min(pct + 4, fileNamePattern.length())) + "\"");
            }
            // %2$05d takes the second number; a plain conversion the one after the last plain one
            argument.add(m.group(1) != null ? Integer.parseInt(m.group(1).substring(0, m.group(1).length() - 1)) - 1
                    : (int) plainCount(fileNamePattern.substring(0, pct)));
            int r = switch (m.group(4)) {
                case "x", "X" -> 16;
                case "o" -> 8;
                default -> 10;
            };
            radix.add(r);
            regex.append(r == 16 ? "( *[0-9a-fA-F]{1,16})" : r == 8 ? "( *[0-7]{1,22})" : "([ +(-]*[0-9,]{1,25}\\)?)");
            at = m.end();
        }
        return new ShardNamePattern(fileNamePattern, Pattern.compile(regex.toString()),
                radix.stream().mapToInt(Integer::intValue).toArray(),
                argument.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The plain (unnumbered) number conversions in {@code head}, i.e. the argument the next one takes. */
    private static long plainCount(String head) {
        Matcher m = CONVERSION.matcher(head.replace("%%", ""));
        long n = 0;
        while (m.find()) {
            n += m.group(1) == null ? 1 : 0;
        }
        return n;
    }

    /** The pattern as given. */
    String text() {
        return pattern;
    }

    /** Whether {@code fileName} is a name this pattern writes. */
    boolean matches(String fileName) {
        Matcher m = regex.matcher(fileName);
        if (!m.matches()) {
            return false;
        }
        Object[] numbers = new Object[arguments];
        java.util.Arrays.fill(numbers, 0L);
        try {
            for (int i = 0; i < radix.length; i++) {
                String digits = m.group(i + 1).replaceAll("[ ,+()]", "");
                numbers[argument[i]] = Long.parseLong(m.group(i + 1).contains("(") ? "-" + digits : digits, radix[i]);
            }
            return String.format(pattern, numbers).equals(fileName);
        } catch (NumberFormatException | IllegalFormatException e) {
            return false;
        }
    }

    /**
     * The file name of the manifest of a set written by this pattern: the name up to its first
     * number, without the separators it ends in, then {@code .stoker-manifest}
     * ({@code shard-%06d.tar} gives {@code shard.stoker-manifest}).
     */
    String manifestName() {
        return ShardSetManifest.nameFor(stem());
    }

    /** The literal start of the names, up to the first number, trailing separators dropped. */
    String stem() {
        int pct = pattern.indexOf('%');
        while (pct >= 0 && pattern.startsWith("%%", pct)) {
            pct = pattern.indexOf('%', pct + 2);
        }
        String head = (pct < 0 ? pattern : pattern.substring(0, pct)).replace("%%", "%");
        int end = head.length();
        while (end > 0 && "-_. ".indexOf(head.charAt(end - 1)) >= 0) {
            end--;
        }
        return end == 0 ? "shards" : head.substring(0, end);
    }
}
