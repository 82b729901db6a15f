//! Reading input files with a bound: no command reads more than
//! [`MAX_INPUT`] bytes from one file, so a device or a stream
//! (`conform check /dev/urandom`) ends with an error instead of filling
//! memory.

use anyhow::{bail, Context, Result};
use std::io::Read;
use std::path::Path;

/// The most bytes read from one input file: 256 MiB, far above any PTX
/// module, litmus test or buffer file a command takes.
pub const MAX_INPUT: u64 = 256 << 20;

/// The bytes of `path`, or an error naming it.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > MAX_INPUT {
        bail!(
            "{}: more than {} MiB; conform reads at most {} MiB from one file",
            path.display(),
            MAX_INPUT >> 20,
            MAX_INPUT >> 20
        );
    }
    Ok(bytes)
}

/// The text of `path` (UTF-8), or an error naming it.
pub fn read_text(path: &Path) -> Result<String> {
    String::from_utf8(read(path)?).map_err(|e| {
        anyhow::anyhow!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_stream_is_cut_off_with_an_error() {
        // /dev/zero never ends: the read stops after the bound
        let p = Path::new("/dev/zero");
        if p.exists() {
            let e = read(p).unwrap_err().to_string();
            assert!(e.contains("/dev/zero: more than 256 MiB"), "{e}");
        }
    }

    #[test]
    fn text_must_be_utf8_and_errors_name_the_file() {
        let dir = std::env::temp_dir().join(format!("conform-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("bad.ptx");
        std::fs::write(&f, b"ab\xffcd").unwrap();
        let e = read_text(&f).unwrap_err().to_string();
        assert!(e.contains("bad.ptx: not UTF-8 text (byte 2)"), "{e}");
        let missing = dir.join("missing.ptx");
        let e = format!("{:#}", read(&missing).unwrap_err());
        assert!(
            e.contains("cannot read") && e.contains("missing.ptx"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
