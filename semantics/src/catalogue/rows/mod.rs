//! The rows of the catalogue, one file per family of PTX ISA 9.7.9.
//! Each file holds a flat table; see the parent module for the notation.

mod address;
mod async_copy;
mod cache;
mod cvt;
mod ld;
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
