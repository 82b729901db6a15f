//! The approximate floating-point instructions (PTX ISA 9.7.3: `.approx`
//! and `.full` forms, `sin`, `cos`, `lg2`, `ex2`, `rsqrt`, `tanh`), whose
//! results the spec bounds rather than fixes.
