//! The rows of the catalogue, one file per family of PTX ISA 9.7.9.
//! Each file holds a flat table; see the parent module for the notation.

mod address;
mod async_copy;
mod cache;
mod cvt;
mod ld;
mod memory;
mod mov;
mod multimem;
mod prmt;
mod shfl;
mod st;
mod tensormap;

use super::Row;

/// Every family's rows.
pub static ALL: &[&[Row]] = &[
    mov::ROWS,
    shfl::ROWS,
    prmt::ROWS,
    ld::ROWS,
    st::ROWS,
    multimem::ROWS,
    cache::ROWS,
    address::ROWS,
    cvt::ROWS,
    async_copy::ROWS,
    tensormap::ROWS,
];

/// Helpers for the rows' tests: resolve qualifier text against the catalogue.
#[cfg(test)]
pub(super) mod testing {
    use crate::catalogue::Catalogue;

    /// Whether `cvt.rn.f16.f32`-style text resolves to some form.
    pub fn resolves(text: &str) -> bool {
        Catalogue::get().resolve_text(text).is_ok()
    }

    /// The spec instruction the text resolves to, if any.
    pub fn instr_of(text: &str) -> Option<&'static str> {
        Catalogue::get()
            .resolve_text(text)
            .ok()
            .map(|b| b.form.row.instr)
    }

    /// Asserts that the text resolves.
    pub fn ok(text: &str) {
        let cat = Catalogue::get();
        assert!(
            cat.resolve_text(text).is_ok(),
            "{text} should resolve: {:?}",
            cat.resolve_text(text).err()
        );
    }

    /// Asserts that the text does not resolve.
    pub fn bad(text: &str) {
        assert!(
            Catalogue::get().resolve_text(text).is_err(),
            "{text} should not resolve"
        );
    }
}
