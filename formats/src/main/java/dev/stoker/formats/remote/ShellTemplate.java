package dev.stoker.formats.remote;

/**
 * Turns the {@code {}} of a user's {@code pipe:} command into a reference to a variable, quoted
 * for where it stands: bare {@code {}} becomes {@code "${VAR}"}, inside double quotes
 * {@code ${VAR}}, inside single quotes {@code '"${VAR}"'} (close, reference, reopen); the braces
 * keep a letter written right after {@code {}} out of the variable's name. The shell then
 * expands the variable as one word, never as code, whatever it holds. The quoting of the user's
 * text is followed as {@code sh} reads it: backslash escapes outside single quotes, and nothing
 * inside them.
 */
final class ShellTemplate {
    private ShellTemplate() {
    }

    static String withVariable(String command, String variable) {
        StringBuilder out = new StringBuilder(command.length() + 16);
        char quote = 0; // 0, '\'' or '"'
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (c == '\\' && quote != '\'' && i + 1 < command.length()) {
                out.append(c).append(command.charAt(++i));
            } else if (c == '{' && i + 1 < command.length() && command.charAt(i + 1) == '}') {
                out.append(switch (quote) {
                    case '\'' -> "'\"${" + variable + "}\"'";
                    case '"' -> "${" + variable + "}";
                    default -> "\"${" + variable + "}\"";
                });
                i++;
            } else {
                if (quote == 0 && (c == '\'' || c == '"')) {
                    quote = c;
                } else if (c == quote) {
                    quote = 0;
                }
                out.append(c);
            }
        }
        return out.toString();
    }
}
