package dev.stoker.micrometer;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * The part of an HTTP/1.x request the scrape endpoint reads: method, path and {@code Accept}
 * header, parsed from the request's head (its lines up to the empty one) as received. Anything
 * that is not a request line with an origin-form or absolute-form target is refused.
 *
 * @param method the method, as sent ({@code GET})
 * @param path   the target's path, without its query ({@code /metrics})
 * @param accept the first {@code Accept} header, or empty
 */
record RequestHead(String method, String path, Optional<String> accept) {

    /**
     * Parses the head of a request: ISO-8859-1 lines ending in CRLF or LF.
     *
     * @return the head, or empty when it is not an HTTP/1.x request
     */
    static Optional<RequestHead> parse(byte[] head, int length) {
        String text = new String(head, 0, length, StandardCharsets.ISO_8859_1);
        String[] lines = text.split("\r?\n", -1);
        String[] start = lines[0].split(" ", -1);
        if (start.length != 3 || start[0].isEmpty() || !start[2].startsWith("HTTP/1.")
                || !start[0].chars().allMatch(c -> c >= 'A' && c <= 'Z')) {
            return Optional.empty();
        }
        Optional<String> path = path(start[1]);
        if (path.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> accept = Optional.empty();
        for (int i = 1; i < lines.length && accept.isEmpty(); i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0 && lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT).equals("accept")) {
                accept = Optional.of(lines[i].substring(colon + 1).strip());
            }
        }
        return Optional.of(new RequestHead(start[0], path.get(), accept));
    }

    /** The path of an origin-form ({@code /metrics?x}) or absolute-form ({@code http://h/metrics}) target. */
    private static Optional<String> path(String target) {
        try {
            URI uri = new URI(target);
            boolean origin = target.startsWith("/") && uri.getRawAuthority() == null;
            boolean absolute = uri.isAbsolute()
                    && ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()));
            if (origin || absolute) {
                return Optional.ofNullable(uri.getPath()).map(p -> p.isEmpty() ? "/" : p);
            }
        } catch (URISyntaxException e) {
            // not a target: refused below
        }
        return Optional.empty();
    }
}
