//! User text into a query, only ever as one literal or one identifier of the dialect, so that
//! no path, table name, tag key or label can end the quote and change the query. NUL
//! characters are dropped (no engine accepts them inside a literal).

/// A string literal for Trino (Athena) and DuckDB: `'…'`, a quote doubled; backslashes are
/// plain characters in both.
pub fn sql_literal(s: &str) -> String {
    doubled(s, '\'')
}

/// A quoted identifier for Trino (Athena) and DuckDB: `"…"`, a double quote doubled.
pub fn sql_ident(s: &str) -> String {
    doubled(s, '"')
}

/// `s` between two `q`s, each `q` in it doubled (the SQL way of quoting; NULs dropped).
fn doubled(s: &str, q: char) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars().filter(|&c| c != '\0') {
        if c == q {
            out.push(q);
        }
        out.push(c);
    }
    out.push(q);
    out
}

/// A dotted name (`database.table`) as quoted identifiers joined by dots (Trino, DuckDB).
pub fn sql_dotted(s: &str) -> String {
    s.split('.')
        .map(|p| sql_ident(p.trim()))
        .collect::<Vec<_>>()
        .join(".")
}

/// Backslash escapes for the dialects whose literals always read them (BigQuery, PromQL): `\\`, the quote, and the control characters written as escapes.
fn escaped(s: &str, quote: char) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\0' => {}
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// A MySQL/MariaDB quoted identifier: `` `…` ``, a backtick doubled.
pub fn mysql_ident(s: &str) -> String {
    doubled(s, '`')
}

/// A MySQL/MariaDB string literal that means the same text whatever `sql_mode` says (with
/// `NO_BACKSLASH_ESCAPES` a backslash escape would end the literal early): the text's bytes
/// in hexadecimal with a character set, `_utf8mb4 X'…'`.
pub fn mysql_literal_strict(s: &str) -> String {
    let hex: String = s
        .bytes()
        .filter(|&b| b != 0)
        .map(|b| format!("{b:02X}"))
        .collect();
    format!("_utf8mb4 X'{hex}'")
}

/// A BigQuery string literal: `'…'` with backslash escapes (BigQuery has no doubled quote).
pub fn bigquery_literal(s: &str) -> String {
    escaped(s, '\'')
}

/// A BigQuery quoted identifier path (`project.dataset.table` in one pair of backticks,
/// backslash escapes inside).
pub fn bigquery_ident(s: &str) -> String {
    escaped(s, '`')
}

/// A PromQL label value (`"…"`, Go string escapes).
pub fn promql_string(s: &str) -> String {
    escaped(s, '"')
}

/// A Prometheus label name as written unquoted: `[a-zA-Z_][a-zA-Z0-9_]*` (Prometheus 2.x
/// has no quoted label names), else `None`.
pub fn promql_label_name(s: &str) -> Option<&str> {
    let s = s.trim();
    let mut chars = s.chars();
    let first = chars.next()?;
    (first.is_ascii_alphabetic() || first == '_')
        .then_some(())
        .filter(|_| chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(|_| s)
}

/// A POSIX shell word: `'…'`, each `'` written `'\''`.
pub fn shell_word(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars().filter(|&c| c != '\0') {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &[&str] = &[
        "x'; DROP TABLE t; --",
        "a\"b",
        "back\\slash'",
        "\\'",
        "line\nbreak",
        "tab\tand\0nul",
        "`tick`",
        "$(rm -rf ~)",
        "it's",
        "'",
        "",
        "团队'",
    ];

    /// Reads a literal back the way a Trino/DuckDB lexer does: the text between the outer
    /// quotes, doubled quotes as one; `None` if a lone quote ends it early.
    fn unquote_doubled(q: &str, quote: char) -> Option<String> {
        let inner = q.strip_prefix(quote)?.strip_suffix(quote)?;
        let mut out = String::new();
        let mut it = inner.chars().peekable();
        while let Some(c) = it.next() {
            if c == quote && it.next() != Some(quote) {
                return None;
            }
            out.push(c);
        }
        Some(out)
    }

    /// Reads a backslash-escaped literal back (MySQL, BigQuery, PromQL).
    fn unquote_escaped(q: &str, quote: char) -> Option<String> {
        let inner = q.strip_prefix(quote)?.strip_suffix(quote)?;
        let mut out = String::new();
        let mut it = inner.chars();
        while let Some(c) = it.next() {
            match c {
                '\\' => match it.next()? {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    c => out.push(c),
                },
                c if c == quote => return None,
                c => out.push(c),
            }
        }
        Some(out)
    }

    #[test]
    fn hostile_text_stays_one_literal() {
        for s in HOSTILE {
            let clean: String = s.chars().filter(|&c| c != '\0').collect();
            // Each quoting, the quote it uses and how its reader unquotes it.
            type Quoting = (fn(&str) -> String, char, fn(&str, char) -> Option<String>);
            let quotings: [Quoting; 6] = [
                (sql_literal, '\'', unquote_doubled),
                (sql_ident, '"', unquote_doubled),
                (mysql_ident, '`', unquote_doubled),
                (bigquery_literal, '\'', unquote_escaped),
                (bigquery_ident, '`', unquote_escaped),
                (promql_string, '"', unquote_escaped),
            ];
            for (quoting, quote, unquote) in quotings {
                assert_eq!(unquote(&quoting(s), quote).as_deref(), Some(&*clean));
            }
            let hex = mysql_literal_strict(s);
            assert!(
                hex[11..hex.len() - 1]
                    .bytes()
                    .all(|b| b.is_ascii_hexdigit()),
                "{hex}"
            );
            // The shell word: '…' pieces joined by \' — no unquoted character but \'.
            let w = shell_word(s);
            let read = w
                .split("'\\''")
                .map(|p| p.trim_matches('\''))
                .collect::<Vec<_>>()
                .join("'");
            assert_eq!(read, clean, "{w}");
        }
    }

    #[test]
    fn examples() {
        assert_eq!(sql_literal("it's"), "'it''s'");
        assert_eq!(sql_dotted("cur.my \"db\""), "\"cur\".\"my \"\"db\"\"\"");
        assert_eq!(mysql_literal_strict("a'"), "_utf8mb4 X'6127'");
        assert_eq!(promql_label_name(" namespace "), Some("namespace"));
        assert_eq!(
            promql_label_name("exported_namespace"),
            Some("exported_namespace")
        );
        assert_eq!(promql_label_name("9x"), None);
        assert_eq!(promql_label_name("a-b"), None);
        assert_eq!(promql_label_name(""), None);
        assert_eq!(shell_word("a'b"), "'a'\\''b'");
    }
}
