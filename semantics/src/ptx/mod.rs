//! PTX text: lexer, parser, syntax tree and printer. Reads whole modules as
//! nvcc emits them and as people write them; leaves meaning to others.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod printer;

pub use ast::*;
pub use parser::{parse, parse_split, ParseError};
pub use printer::print;

/// A byte range in the source. Equal to every other span, so that trees
/// compare by content alone.
#[derive(Clone, Copy, Debug, Default, Eq)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl PartialEq for Span {
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

/// Consistent with equality: every span hashes alike.
impl std::hash::Hash for Span {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// Line and column (both from 1, column in characters) of a byte offset.
pub fn line_col(src: &str, offset: u32) -> (usize, usize) {
    let offset = (offset as usize).min(src.len());
    let before = &src.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let col = src
        .get(line_start..offset)
        .map_or(offset - line_start, |s| s.chars().count())
        + 1;
    (line, col)
}

/// The text of the line holding a byte offset, without its newline.
pub fn line_text(src: &str, offset: u32) -> &str {
    let offset = (offset as usize).min(src.len());
    let start = src.as_bytes()[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let end = src.as_bytes()[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(src.len(), |p| offset + p);
    src.get(start..end).unwrap_or("")
}
