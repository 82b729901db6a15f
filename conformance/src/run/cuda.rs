//! `--impl cuda`: the CUDA driver API, loaded at run time (being written).
