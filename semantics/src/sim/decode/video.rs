//! Decoding the video, `set` and `slct` instructions into their
//! interpreter form ([`crate::sim::video`]).
