//! Escaping text from a results file for HTML, XML and Markdown. Every
//! string of a results file may hold anything (a reason is often a
//! compiler's output), so every string goes through one of these.

use std::fmt::Write;

/// Characters XML 1.0 does not allow even as references (C0 controls but
/// tab, newline and carriage return; U+FFFE, U+FFFF): written as `\u{..}`.
fn not_xml_char(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// Text content for HTML or XML: `& < >` and quotes as references, so the
/// result is also safe inside a quoted attribute value.
pub fn markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if not_xml_char(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// An XML attribute value: as [`markup`], and line breaks and tabs as
/// character references, which attribute normalisation would otherwise turn
/// into spaces.
pub fn xml_attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in markup(s).chars() {
        match c {
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

/// Markdown inline text, on one line: line breaks become spaces, and the
/// characters that start emphasis, links, HTML, entities, code or table
/// cells are backslash-escaped (CommonMark lets any ASCII punctuation be).
pub(crate) fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '~' | '!' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c if not_xml_char(c) => {
                let _ = write!(out, "\\\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// A Markdown code span holding `s` literally, for use inside a table cell
/// (where GitHub's tables need `|` escaped even in code). The fence is one
/// backtick longer than the longest run of backticks in `s`.
pub(crate) fn md_code(s: &str) -> String {
    let one_line: String = s
        .chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' => ' ',
            c if not_xml_char(c) => '\u{fffd}',
            c => c,
        })
        .collect();
    let mut longest = 0;
    let mut run = 0;
    for c in one_line.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest + 1);
    let body = one_line.replace('|', "\\|");
    // A span that starts or ends with a backtick needs a space inside the
    // fence (stripped again by the renderer).
    if body.starts_with('`') || body.ends_with('`') || body.is_empty() {
        format!("{fence} {body} {fence}")
    } else {
        format!("{fence}{body}{fence}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_escapes_the_five_and_controls() {
        assert_eq!(
            markup("<a href=\"x\">&'\u{1}</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;\\u{1}&lt;/a&gt;"
        );
    }

    #[test]
    fn xml_attr_keeps_line_breaks() {
        assert_eq!(xml_attr("a\nb\tc"), "a&#10;b&#9;c");
    }

    #[test]
    fn md_text_escapes_html_and_tables() {
        assert_eq!(md_text("<script>|x_y\n"), "\\<script\\>\\|x\\_y ");
    }

    #[test]
    fn md_code_fences_around_backticks() {
        assert_eq!(md_code("a`b"), "``a`b``");
        assert_eq!(md_code("`x"), "`` `x ``");
        assert_eq!(md_code("a|b"), "`a\\|b`");
    }
}
