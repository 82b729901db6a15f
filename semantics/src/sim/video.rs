//! The interpreter's decoded form of the video, `set` and `slct`
//! instructions and one lane's evaluation through [`crate::arith::video`].
