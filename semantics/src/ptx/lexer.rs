//! PTX lexer (PTX ISA 4, "Syntax"): identifiers, dotted directives and
//! qualifiers, numbers, strings and punctuation. Tokens are spans into the
//! source; nothing is copied.

use super::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// `foo`, `%r1`, `$L__BB0_1`, `_`, `%tid` (the `.x` is a separate Dot).
    Ident,
    /// `.reg`, `.b32`, `.shared::cta`, `.L2::128B`, `.2d`: the dot included.
    Dot,
    /// Integer literal: decimal, `0x`, `0b`, leading-zero octal, `U` suffix.
    Int,
    /// `0f3f800000`, `0d3ff0000000000000`, `1.5`, `1e-3`.
    Float,
    /// `"text"` with its quotes.
    Str,
    /// One punctuation character.
    Punct(u8),
    Eof,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokKind,
    pub start: u32,
    pub end: u32,
}

impl Token {
    pub fn span(&self) -> Span {
        Span::new(self.start, self.end)
    }

    pub fn text<'s>(&self, src: &'s str) -> &'s str {
        &src[self.start as usize..self.end as usize]
    }
}

/// A lexical error: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub at: u32,
    pub message: String,
}

/// Byte classes, one table look-up each.
const WHITESPACE: u8 = 1;
const IDENT_START: u8 = 2;
const IDENT_CHAR: u8 = 4;
const PUNCT: u8 = 8;

static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut k = 0;
        // `u8::is_ascii_whitespace`: space, tab, newline, form feed, return.
        if matches!(c, b' ' | b'\t' | b'\n' | b'\x0C' | b'\r') {
            k |= WHITESPACE;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c == b'%' {
            k |= IDENT_START;
        }
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' {
            k |= IDENT_CHAR;
        }
        if matches!(
            c,
            b'{' | b'}'
                | b'['
                | b']'
                | b'('
                | b')'
                | b'<'
                | b'>'
                | b','
                | b';'
                | b':'
                | b'+'
                | b'-'
                | b'*'
                | b'/'
                | b'%'
                | b'!'
                | b'@'
                | b'|'
                | b'='
                | b'&'
                | b'^'
                | b'~'
                | b'?'
        ) {
            k |= PUNCT;
        }
        t[b] = k;
        b += 1;
    }
    t
};

fn is_punct(b: u8) -> bool {
    CLASS[b as usize] & PUNCT != 0
}

fn ident_start(b: u8) -> bool {
    CLASS[b as usize] & IDENT_START != 0
}

fn ident_char(b: u8) -> bool {
    CLASS[b as usize] & IDENT_CHAR != 0
}

/// Splits the whole source into tokens, ending with `Eof`.
pub fn lex(src: &str) -> Result<Vec<Token>, LexError> {
    let bytes = src.as_bytes();
    if bytes.len() >= u32::MAX as usize {
        return Err(LexError {
            at: 0,
            message: "source larger than 4 GiB".into(),
        });
    }
    let mut toks = Vec::with_capacity(bytes.len() / 4);
    let mut i = 0usize;
    let n = bytes.len();
    while i < n {
        let b = bytes[i];
        if CLASS[b as usize] & WHITESPACE != 0 {
            i += 1;
            continue;
        }
        let start = i;
        let kind = if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < n && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if b == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            loop {
                if i + 1 >= n {
                    return Err(LexError {
                        at: start as u32,
                        message: "unterminated block comment".into(),
                    });
                }
                if bytes[i] == b'*' && bytes[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
            continue;
        } else if b == b'%' && !bytes.get(i + 1).is_some_and(|c| ident_char(*c)) {
            i += 1;
            TokKind::Punct(b'%')
        } else if ident_start(b) {
            i += 1;
            while i < n && ident_char(bytes[i]) {
                i += 1;
            }
            TokKind::Ident
        } else if b == b'.' {
            i += 1;
            if i >= n || !(ident_char(bytes[i])) {
                return Err(LexError {
                    at: start as u32,
                    message: "`.` must start a directive or qualifier".into(),
                });
            }
            loop {
                while i < n && ident_char(bytes[i]) {
                    i += 1;
                }
                if i + 2 < n + 1
                    && i + 1 < n
                    && bytes[i] == b':'
                    && bytes[i + 1] == b':'
                    && i + 2 < n
                    && ident_char(bytes[i + 2])
                {
                    i += 2;
                    continue;
                }
                break;
            }
            TokKind::Dot
        } else if b.is_ascii_digit() {
            lex_number(bytes, &mut i).map_err(|message| LexError {
                at: start as u32,
                message,
            })?
        } else if b == b'"' {
            i += 1;
            while i < n && bytes[i] != b'"' {
                if bytes[i] == b'\n' {
                    break;
                }
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            if i >= n || bytes[i] != b'"' {
                return Err(LexError {
                    at: start as u32,
                    message: "unterminated string".into(),
                });
            }
            i += 1;
            TokKind::Str
        } else if is_punct(b) {
            i += 1;
            TokKind::Punct(b)
        } else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(LexError {
                at: start as u32,
                message: format!("unexpected character `{}`", ch.escape_default()),
            });
        };
        toks.push(Token {
            kind,
            start: start as u32,
            end: i as u32,
        });
    }
    toks.push(Token {
        kind: TokKind::Eof,
        start: n as u32,
        end: n as u32,
    });
    Ok(toks)
}

fn lex_number(bytes: &[u8], i: &mut usize) -> Result<TokKind, String> {
    let n = bytes.len();
    let start = *i;
    let at = |k: usize| bytes.get(k).copied().unwrap_or(0);
    if at(start) == b'0' && matches!(at(start + 1), b'f' | b'F' | b'd' | b'D') {
        let digits = if matches!(at(start + 1), b'f' | b'F') {
            8
        } else {
            16
        };
        let mut j = start + 2;
        while j < n && bytes[j].is_ascii_hexdigit() {
            j += 1;
        }
        if j - (start + 2) != digits {
            return Err(format!(
                "a `0{}` float literal needs exactly {digits} hex digits",
                at(start + 1) as char
            ));
        }
        *i = j;
        return Ok(TokKind::Float);
    }
    if at(start) == b'0' && matches!(at(start + 1), b'x' | b'X' | b'b' | b'B') {
        let hex = matches!(at(start + 1), b'x' | b'X');
        let mut j = start + 2;
        while j < n && (bytes[j].is_ascii_hexdigit() && (hex || bytes[j] <= b'1')) {
            j += 1;
        }
        if j == start + 2 {
            return Err("missing digits after the radix prefix".into());
        }
        if j < n && (bytes[j] == b'U' || bytes[j] == b'u') {
            j += 1;
        }
        if j < n && ident_char(bytes[j]) {
            return Err("malformed number".into());
        }
        *i = j;
        return Ok(TokKind::Int);
    }
    let mut j = start;
    while j < n && bytes[j].is_ascii_digit() {
        j += 1;
    }
    let mut float = false;
    if j < n && bytes[j] == b'.' && !(j + 1 < n && bytes[j + 1].is_ascii_alphabetic()) {
        float = true;
        j += 1;
        while j < n && bytes[j].is_ascii_digit() {
            j += 1;
        }
    }
    if j < n && (bytes[j] == b'e' || bytes[j] == b'E') {
        let mut k = j + 1;
        if k < n && (bytes[k] == b'+' || bytes[k] == b'-') {
            k += 1;
        }
        if k < n && bytes[k].is_ascii_digit() {
            float = true;
            while k < n && bytes[k].is_ascii_digit() {
                k += 1;
            }
            j = k;
        }
    }
    if !float && j < n && (bytes[j] == b'U' || bytes[j] == b'u') {
        j += 1;
    }
    if j < n && ident_char(bytes[j]) {
        return Err("malformed number".into());
    }
    *i = j;
    Ok(if float { TokKind::Float } else { TokKind::Int })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokKind, &str)> {
        lex(src)
            .unwrap()
            .iter()
            .map(|t| (t.kind, t.text(src)))
            .collect()
    }

    #[test]
    fn qualifiers_and_numbers() {
        let k = kinds(
            "ld.shared::cta.L2::128B.v4.u32 {%r1,_}, [x+0x10]; // c\n 0f3F800000 1.5e3 017 0b11 7U",
        );
        assert_eq!(k[0], (TokKind::Ident, "ld"));
        assert_eq!(k[1], (TokKind::Dot, ".shared::cta"));
        assert_eq!(k[2], (TokKind::Dot, ".L2::128B"));
        assert!(k.contains(&(TokKind::Int, "0x10")));
        assert!(k.contains(&(TokKind::Float, "0f3F800000")));
        assert!(k.contains(&(TokKind::Float, "1.5e3")));
        assert!(k.contains(&(TokKind::Int, "0b11")));
        assert!(k.contains(&(TokKind::Int, "7U")));
        assert_eq!(k.last().unwrap().0, TokKind::Eof);
    }

    #[test]
    fn byte_classes_match_their_definitions() {
        for b in 0..=255u8 {
            assert_eq!(CLASS[b as usize] & WHITESPACE != 0, b.is_ascii_whitespace());
            assert_eq!(
                ident_start(b),
                b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b == b'%'
            );
            assert_eq!(
                ident_char(b),
                b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
            );
            assert_eq!(is_punct(b), b"{}[]()<>,;:+-*/%!@|=&^~?".contains(&b));
        }
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(lex("a /* b").unwrap_err().at, 2);
        assert_eq!(lex("x 0f12").unwrap_err().at, 2);
        assert_eq!(lex("a # b").unwrap_err().at, 2);
        assert!(lex("\"abc").is_err());
        assert!(lex("12abc").is_err());
    }
}
