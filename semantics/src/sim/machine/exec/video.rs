//! `set`, `slct`, the video instructions and the packed integer forms for
//! one lane, through [`crate::sim::video::eval`].

use super::super::Machine;
use crate::sim::alu::mask;
use crate::sim::video::{eval, Video, VideoInstr};

impl Machine<'_> {
    /// One lane: a source with unspecified bits leaves the whole result
    /// unspecified, except that `slct` copies the chosen source's bits
    /// ("The selected input is copied to the output without
    /// modification") once `c` is known.
    pub(super) fn video(&mut self, w: usize, l: usize, v: &VideoInstr) {
        let mut x = [0u64; 3];
        let mut sh = [0u64; 3];
        for k in 0..3 {
            (x[k], sh[k]) = self.val(w, v.srcs[k], l);
        }
        let m = mask(u32::from(v.bits));
        let r = eval(v, x).unwrap_or(0) & m;
        let unspec = match v.op {
            // which source `slct` copies: `a` (index 0) or `b` (1)
            Video::Slct { float_c, ftz } if sh[2] == 0 => {
                let picked = crate::arith::video::slct(float_c, ftz, 0, 1, x[2] as u32);
                sh[picked as usize & 1] & m
            }
            _ if sh.iter().any(|&s| s != 0) => m,
            _ => 0,
        };
        self.set(w, v.d, l, r, unspec);
    }
}
