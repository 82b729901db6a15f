//! Rows for this family are being written.

use crate::catalogue::Row;

pub static ROWS: &[Row] = &[];
