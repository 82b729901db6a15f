//! Reading a results file (with errors that name the file, and the line and
//! column for JSON that does not parse) and writing a file atomically. What
//! the fields mean is `results.rs`'s; what to write is the renderers'.

use crate::results::{Results, SCHEMA};
use serde::Deserialize;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a results file could not be read or a report not written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// The file is not JSON (or stops early).
    #[error("{}:{line}:{column}: not valid JSON: {message}", path.display())]
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// The file is JSON with the right `schema` but a field is missing or
    /// of the wrong type.
    #[error("{}:{line}:{column}: not a valid {SCHEMA} file: {message}", path.display())]
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// The `schema` field is missing or names another schema.
    #[error("{}: {}", path.display(), schema_message(found.as_deref()))]
    Schema {
        path: PathBuf,
        /// The `schema` value found, `None` when there is none.
        found: Option<String>,
    },
    /// The file (or its temporary twin) could not be written or renamed.
    #[error("{}: cannot write: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
}

fn schema_message(found: Option<&str>) -> String {
    match found {
        None => format!("no \"schema\" field: not a results file of `conform run` (expected \"schema\": \"{SCHEMA}\")"),
        Some(other) => format!(
            "schema is \"{other}\", but this program reads \"{SCHEMA}\" (a results file of another version of ptx-conform?)"
        ),
    }
}

/// Reads a results file (`ptx-conform-results/1`).
///
/// Errors name `path`; JSON that does not parse, and fields of the wrong
/// type, also give the line and column. A file whose `schema` is not
/// [`SCHEMA`] is refused before its other fields are looked at.
pub fn load(path: impl AsRef<Path>) -> Result<Results, Error> {
    let path = path.as_ref();
    let bytes = fs::read(path).map_err(|source| Error::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&bytes, path)
}

/// Parses the text of a results file; `origin` is the name errors give
/// (a path, or `-` for standard input).
pub fn parse(json: &[u8], origin: impl AsRef<Path>) -> Result<Results, Error> {
    let path = origin.as_ref();
    // First only the schema, so that a file of another version gets a
    // message about its version and not about the first field that moved.
    #[derive(Deserialize)]
    struct SchemaOnly {
        #[serde(default)]
        schema: Option<serde_json::Value>,
    }
    // Serde would read a struct from an array too: make sure of the object.
    let first = json.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        serde_json::from_slice::<serde::de::IgnoredAny>(json).map_err(|e| json_error(path, e))?;
        let text = String::from_utf8_lossy(json);
        let (line, column) = position_of_first_non_space(&text);
        return Err(Error::Invalid {
            path: path.to_path_buf(),
            line,
            column,
            message: "a results file is one JSON object".to_string(),
        });
    }
    let head: SchemaOnly = serde_json::from_slice(json).map_err(|e| json_error(path, e))?;
    match head.schema {
        Some(serde_json::Value::String(s)) if s == SCHEMA => {}
        Some(serde_json::Value::String(s)) => {
            return Err(Error::Schema {
                path: path.to_path_buf(),
                found: Some(s),
            })
        }
        Some(other) => {
            return Err(Error::Schema {
                path: path.to_path_buf(),
                found: Some(other.to_string()),
            })
        }
        None => {
            return Err(Error::Schema {
                path: path.to_path_buf(),
                found: None,
            })
        }
    }
    serde_json::from_slice(json).map_err(|e| json_error(path, e))
}

/// The 1-based line and column of the first character that is not
/// whitespace.
fn position_of_first_non_space(text: &str) -> (usize, usize) {
    let (mut line, mut column) = (1, 0);
    for c in text.chars() {
        column += 1;
        if c == '\n' {
            line += 1;
            column = 0;
        } else if !c.is_whitespace() {
            break;
        }
    }
    (line, column)
}

fn json_error(path: &Path, e: serde_json::Error) -> Error {
    let (line, column) = (e.line(), e.column());
    // serde_json's Display ends with " at line L column C"; we put those
    // in front, as `file:line:column`, so drop them from the message.
    let full = e.to_string();
    let suffix = format!(" at line {line} column {column}");
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_string();
    let path = path.to_path_buf();
    match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => Error::Syntax {
            path,
            line,
            column,
            message,
        },
        serde_json::error::Category::Data | serde_json::error::Category::Io => Error::Invalid {
            path,
            line,
            column,
            message,
        },
    }
}

/// Writes `contents` to `path` so that `path` holds either its old contents
/// or all of the new ones, never part: the bytes go to a new temporary file
/// in the same directory (`.NAME.tmp-PID-N`), are flushed to disk, and the
/// file is renamed over `path`. The temporary file is removed on failure.
pub fn write_atomic(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> Result<(), Error> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let path = path.as_ref();
    let write_error = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let name = path.file_name().ok_or_else(|| {
        write_error(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the path names no file",
        ))
    })?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(
        ".tmp-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let tmp = dir.join(tmp_name);

    let result = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        file.write_all(contents.as_ref())?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if let Err(source) = result {
        let _ = fs::remove_file(&tmp);
        return Err(write_error(source));
    }
    // Make the rename itself durable where the platform allows opening a
    // directory; the new contents are in place either way.
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
