//! Hand-worked cases of the tensor map rules and the tiled copy.

use super::*;

/// Global memory of `n` bytes at `base` where byte `k` is `f(k)`.
fn memory(base: u64, bytes: Vec<u8>) -> impl Fn(u64, usize) -> Option<Vec<u8>> {
    move |a: u64, n: usize| {
        let o = a.checked_sub(base)? as usize;
        bytes.get(o..o + n).map(|s| s.to_vec())
    }
}

/// The bytes of a load (every chunk of these boxes is written).
fn load(
    m: &TensorMap,
    c: &[i32],
    a: u32,
    g: &dyn crate::tensor::Global,
) -> Result<Vec<u8>, TensorError> {
    tile_load(m, c, a, g).map(|t| {
        assert!(t.written.iter().all(|&w| w) || m.swizzle != Swizzle::None);
        t.bytes
    })
}

fn map2d(ty: DataType, dims: [u64; 2], stride: u64, boxd: [u32; 2]) -> TensorMap {
    TensorMap {
        data_type: ty,
        rank: 2,
        global_address: 0x1000,
        global_dims: [dims[0], dims[1], 1, 1, 1],
        global_strides: [stride, 0, 0, 0],
        box_dims: [boxd[0], boxd[1], 1, 1, 1],
        ..TensorMap::default()
    }
}

#[test]
fn rank1_box_is_a_slice() {
    let g = memory(0x1000, (0..64u8).collect());
    let m = TensorMap {
        data_type: DataType::U8,
        rank: 1,
        global_address: 0x1000,
        global_dims: [40, 1, 1, 1, 1],
        box_dims: [32, 1, 1, 1, 1],
        ..TensorMap::default()
    };
    m.validate().unwrap();
    assert_eq!(
        load(&m, &[0], 0, &g).unwrap(),
        (0..32u8).collect::<Vec<_>>()
    );
    // Partly outside at the end: elements 16..39 in, 40..47 zero.
    let mut want: Vec<u8> = (16..40u8).collect();
    want.extend([0; 8]);
    assert_eq!(load(&m, &[16], 0, &g).unwrap(), want);
    // Partly outside at the start.
    let mut want = vec![0u8; 16];
    want.extend(0..16u8);
    assert_eq!(load(&m, &[-16], 0, &g).unwrap(), want);
    // Fully outside, far away: all zero.
    assert_eq!(load(&m, &[i32::MIN], 0, &g).unwrap(), vec![0; 32]);
    assert_eq!(load(&m, &[i32::MAX - 15], 0, &g).unwrap(), vec![0; 32]);
    assert_eq!(box_shape(&m).unwrap().bytes, 32);
    // A box that does not start on 16 bytes of global memory (PTX 5.5.3.1).
    assert_eq!(
        load(&m, &[4], 0, &g),
        Err(TensorError::MisalignedBox { offset: 4 })
    );
    assert!(matches!(
        load(&m, &[-3], 0, &g),
        Err(TensorError::MisalignedBox { offset: -3 })
    ));
}

#[test]
fn element_strides_skip_rows_and_dimension0_ignores_its_stride() {
    // 2-D u32 tensor 8 wide, 10 high, rows 32 bytes apart; element k has value k.
    let words: Vec<u8> = (0..80u32).flat_map(|k| k.to_le_bytes()).collect();
    let g = memory(0x1000, words);
    let mut m = map2d(DataType::U32, [8, 10], 32, [4, 5]);
    m.element_strides = [3, 2, 1, 1, 1]; // dimension 0's stride is ignored without interleave
    m.validate().unwrap();
    let s = box_shape(&m).unwrap();
    assert_eq!(s.counts[..2], [4, 3]); // ceil(5 / 2) = 3 rows
    assert_eq!(s.bytes, 48);
    let got = load(&m, &[4, 1], 0, &g).unwrap();
    let vals: Vec<u32> = got
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // rows y = 1, 3, 5; x = 4..8
    assert_eq!(vals, vec![12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47]);
    // y = 7, 9, 11: the third row is outside.
    let got = load(&m, &[4, 7], 0, &g).unwrap();
    let vals: Vec<u32> = got
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(vals, vec![60, 61, 62, 63, 76, 77, 78, 79, 0, 0, 0, 0]);
}

#[test]
fn oob_fill_zero_and_nan() {
    let words: Vec<u8> = (0..80u32)
        .flat_map(|k| (k as f32 + 0.5).to_bits().to_le_bytes())
        .collect();
    let g = memory(0x1000, words);
    let mut m = map2d(DataType::F32, [8, 10], 32, [8, 2]);
    let vals = |b: Vec<u8>| -> Vec<u32> {
        b.chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let got = vals(load(&m, &[-4, 9], 0, &g).unwrap());
    let f = |k: u32| (k as f32 + 0.5).to_bits();
    let mut want = vec![0, 0, 0, 0, f(72), f(73), f(74), f(75)];
    want.extend([0; 8]);
    assert_eq!(got, want);
    m.oob_fill = OobFill::NanRequestZeroFma;
    m.validate().unwrap();
    let nan = 0x7ff7_7ff7;
    let got = vals(load(&m, &[-4, 9], 0, &g).unwrap());
    let mut want = vec![nan, nan, nan, nan, f(72), f(73), f(74), f(75)];
    want.extend([nan; 8]);
    assert_eq!(got, want);
    // f16: the 16-bit OOB-NaN
    let mut h = map2d(DataType::F16, [8, 10], 16, [16, 1]);
    h.oob_fill = OobFill::NanRequestZeroFma;
    let halves = load(&h, &[0, 0], 0, &memory(0x1000, vec![1; 160])).unwrap();
    assert_eq!(halves[..16], [1; 16]);
    assert_eq!(halves[16..20], [0xf7, 0x7f, 0xf7, 0x7f]);
    // integers cannot take it
    let mut i = map2d(DataType::S32, [8, 10], 32, [4, 2]);
    i.oob_fill = OobFill::NanRequestZeroFma;
    assert_eq!(i.validate().unwrap_err().field, "oobFill");
}

#[test]
fn swizzle_placement_follows_the_tables() {
    let t32: [[u32; 8]; 2] = [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6]];
    let t64: [[u32; 8]; 4] = [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [1, 0, 3, 2, 5, 4, 7, 6],
        [2, 3, 0, 1, 6, 7, 4, 5],
        [3, 2, 1, 0, 7, 6, 5, 4],
    ];
    let t128: [[u32; 8]; 8] = [
        [0, 1, 2, 3, 4, 5, 6, 7],
        [1, 0, 3, 2, 5, 4, 7, 6],
        [2, 3, 0, 1, 6, 7, 4, 5],
        [3, 2, 1, 0, 7, 6, 5, 4],
        [4, 5, 6, 7, 0, 1, 2, 3],
        [5, 4, 7, 6, 1, 0, 3, 2],
        [6, 7, 4, 5, 2, 3, 0, 1],
        [7, 6, 5, 4, 3, 2, 1, 0],
    ];
    let check = |sw: Swizzle, rows: &[[u32; 8]], repeat: u32| {
        let m = TensorMap {
            swizzle: sw,
            ..TensorMap::default()
        };
        for base in [0u32, repeat, 7 * repeat] {
            for (r, row) in rows.iter().enumerate() {
                for (col, &chunk) in row.iter().enumerate() {
                    // chunk `chunk` of line r (unswizzled) lands at column col
                    let from = base + 128 * r as u32 + 16 * chunk;
                    assert_eq!(
                        swizzle_addr(&m, from),
                        base + 128 * r as u32 + 16 * col as u32,
                        "{sw:?} r{r} c{col}"
                    );
                    assert_eq!(
                        swizzle_addr(&m, from + 5),
                        base + 128 * r as u32 + 16 * col as u32 + 5
                    );
                }
            }
        }
    };
    check(Swizzle::B32, &t32, 256);
    check(Swizzle::B64, &t64, 512);
    check(Swizzle::B128, &t128, 1024);
    // The base offset of a destination past the repeat boundary: (dstMem / 128) % 8.
    let m = TensorMap {
        swizzle: Swizzle::B128,
        ..TensorMap::default()
    };
    assert_eq!(swizzle_addr(&m, 3 * 128), 3 * 128 + 3 * 16);
    // 32-byte atomicity: 32-byte units, rows 0..3 as the table, then repeat.
    let a32 = TensorMap {
        swizzle: Swizzle::B128,
        atomicity: Atomicity::B32,
        ..TensorMap::default()
    };
    let rows32: [[u32; 4]; 4] = [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]];
    for (r, row) in rows32.iter().enumerate() {
        for (col, &unit) in row.iter().enumerate() {
            let from = 128 * r as u32 + 32 * unit + 16;
            assert_eq!(
                swizzle_addr(&a32, from),
                128 * r as u32 + 32 * col as u32 + 16
            );
        }
    }
    // 64-byte atomicity.
    let a64 = TensorMap {
        swizzle: Swizzle::B128,
        atomicity: Atomicity::B64,
        ..TensorMap::default()
    };
    assert_eq!(swizzle_addr(&a64, 128), 128 + 64);
    assert_eq!(swizzle_addr(&a64, 256 + 64), 256 + 64);
    // the 8-byte flip on odd lines only
    let f8 = TensorMap {
        swizzle: Swizzle::B128,
        atomicity: Atomicity::B32Flip8,
        ..TensorMap::default()
    };
    assert_eq!(swizzle_addr(&f8, 0), 0);
    assert_eq!(swizzle_addr(&f8, 128), 128 + 32 + 8);
}

#[test]
fn swizzled_tile_moves_whole_chunks() {
    // u8 tensor 128 wide, 16 rows, each 16-byte chunk filled with its own id
    // (row * 8 + chunk); a box of 128 x 8 at row 2, 128B swizzle.
    let bytes: Vec<u8> = (0..16 * 128).map(|k| (k / 16) as u8).collect();
    let g = memory(0x1000, bytes);
    let mut m = map2d(DataType::U8, [128, 16], 128, [128, 8]);
    m.swizzle = Swizzle::B128;
    m.validate().unwrap();
    let got = load(&m, &[0, 2], 1024, &g).unwrap();
    for line in 0..8u32 {
        for col in 0..8u32 {
            let id = got[(line * 128 + col * 16) as usize];
            assert_eq!(
                id as u32,
                (line + 2) * 8 + (col ^ line),
                "line {line} col {col}"
            );
        }
    }
    // At 1024 + 3 * 128 the pattern starts at row 3.
    let got = load(&m, &[0, 2], 1024 + 384, &g).unwrap();
    assert_eq!(got[16] as u32, 2 * 8 + (1 ^ 3));
    // 64B swizzle of 64-byte rows: two rows per line, both with the line's pattern.
    let mut m = map2d(DataType::U8, [128, 16], 128, [64, 8]);
    m.swizzle = Swizzle::B64;
    let got = load(&m, &[0, 0], 0, &g).unwrap();
    // line 1 holds rows 2 and 3; XOR 1 swaps chunk pairs (0,1) and (2,3) within each 64-byte half
    assert_eq!(got[128], 2 * 8 + 1);
    assert_eq!(got[128 + 16], 2 * 8);
    assert_eq!(got[128 + 64], 3 * 8 + 1);
    // a 128-byte row under 64B swizzle breaks the inner-dimension rule
    m.box_dims[0] = 128;
    assert_eq!(m.validate().unwrap_err().field, "swizzle");
    // shared destinations must be 128-byte aligned
    m.box_dims[0] = 64;
    assert!(matches!(
        load(&m, &[0, 0], 16, &g),
        Err(TensorError::Misaligned { align: 128, .. })
    ));
    m.swizzle = Swizzle::None;
    assert!(matches!(
        load(&m, &[0, 0], 64, &g),
        Err(TensorError::Misaligned { align: 128, .. })
    ));
}

#[test]
fn swizzled_rows_narrower_than_the_span_take_the_whole_span() {
    // f16 rows of 40 elements (80 bytes) under 128B swizzle: 128 bytes a row,
    // chunks 5..7 of each line unwritten (a case the H100 sweep decoded).
    let bytes: Vec<u8> = (0..4 * 128).map(|k| (k / 16) as u8).collect();
    let g = memory(0x1000, bytes);
    let mut m = map2d(DataType::F16, [64, 4], 128, [40, 3]);
    m.swizzle = Swizzle::B128;
    m.validate().unwrap();
    let s = box_shape(&m).unwrap();
    assert_eq!(
        (s.row_bytes, s.pitch, s.bytes, s.extent),
        (80, 128, 240, 384)
    );
    let t = tile_load(&m, &[0, 0], 3 * 128, &g).unwrap();
    assert_eq!(t.bytes.len(), 384);
    // line 3 (row 0): chunk c at column c ^ 3; columns of chunks 5..7 unwritten
    for (c, col) in [(0u32, 3u32), (1, 2), (2, 1), (3, 0), (4, 7)] {
        assert!(t.written[col as usize]);
        assert_eq!(t.bytes[16 * col as usize] as u32, c);
    }
    for col in [4usize, 5, 6] {
        assert!(!t.written[col]);
    }
    // line 4 (row 1): XOR 4
    assert_eq!(t.bytes[128 + 16 * 4] as u32, 8);
    let mut old = vec![0xaa; 384];
    t.apply(&mut old);
    assert_eq!(old[64..80], [0xaa; 16]);
    assert_eq!(old[48], 0);
    // the store reads rows at the same pitch
    let src: Vec<u8> = (0..384u32).map(|k| (k % 251) as u8).collect();
    let w = tile_store(&m, &[0, 0], 3 * 128, &src).unwrap();
    assert_eq!(w.len(), 3);
    assert_eq!(w[1].0, 0x1000 + 128);
    assert_eq!(w[1].1[..16], src[128 + 64..128 + 80]); // row 1's chunk 0 sits at column 4
}

#[test]
fn rank5_order_is_dimension0_fastest() {
    // dims 16 x 2 x 3 x 2 x 2 u8, packed strides 16, 32, 96, 192.
    let g = memory(0x1000, (0..=255u8).cycle().take(384).collect());
    let m = TensorMap {
        data_type: DataType::U8,
        rank: 5,
        global_address: 0x1000,
        global_dims: [16, 2, 3, 2, 2],
        global_strides: [16, 32, 96, 192],
        box_dims: [16, 2, 2, 2, 2],
        ..TensorMap::default()
    };
    m.validate().unwrap();
    let got = load(&m, &[0, 0, 1, 0, 0], 0, &g).unwrap();
    assert_eq!(got.len(), 16 * 16);
    // box element (x0, j1, j2, j3, j4) = global (x0, j1, 1 + j2, j3, j4)
    for (j4, j3, j2, j1) in [(0, 0, 0, 0), (1, 1, 1, 1), (0, 1, 0, 1), (1, 0, 1, 0)] {
        let row = j1 + 2 * (j2 + 2 * (j3 + 2 * j4));
        let gaddr = 16 * j1 + 32 * (1 + j2) + 96 * j3 + 192 * j4;
        // dimension 2 is 3 long: j2 = 1 lands on coordinate 2, inside
        assert_eq!(
            got[16 * row + 5],
            ((gaddr + 5) % 256) as u8,
            "{j4}{j3}{j2}{j1}"
        );
    }
    // coordinate 2 in dimension 2 with j2 = 1 gives 3: outside, zero
    let got = load(&m, &[0, 0, 2, 0, 0], 0, &g).unwrap();
    assert_eq!(got[16 * 2..16 * 4], [0; 32]); // rows with j2 = 1, j1 = 0 and 1
    assert!(got[..16].iter().any(|&b| b != 0));
    assert!(matches!(
        load(&m, &[0, 0], 0, &g),
        Err(TensorError::Coordinates { rank: 5, given: 2 })
    ));
}

#[test]
fn store_writes_in_bounds_elements_only() {
    let mut m = map2d(DataType::U16, [12, 4], 32, [8, 2]);
    m.validate().unwrap();
    let smem: Vec<u8> = (0..32u8).collect();
    let w = tile_store(&m, &[8, 3], 0, &smem).unwrap();
    // row y=3: x 8..11 in bounds (4 elements = 8 bytes), x 12..15 not; row y=4 outside
    assert_eq!(w, vec![(0x1000 + 3 * 32 + 16, (0..8u8).collect())]);
    assert!(matches!(
        tile_store(&m, &[-8, 0], 0, &smem),
        Err(TensorError::NegativeCoordinate { dim: 0, value: -8 })
    ));
    // with a swizzle the source is read from the swizzled place
    m.swizzle = Swizzle::B32;
    m.global_dims = [16, 16, 1, 1, 1];
    m.box_dims = [16, 16, 1, 1, 1];
    let src: Vec<u8> = (0..=255u8).chain(0..=255u8).collect();
    let w = tile_store(&m, &[0, 0], 0, &src).unwrap();
    // row 4 (bytes 128..160 unswizzled) sits in line 1: its two chunks are swapped
    assert_eq!(w[4].0, 0x1000 + 4 * 32);
    assert_eq!(w[4].1[..16], src[144..160]);
    assert_eq!(w[4].1[16..], src[128..144]);
}

#[test]
fn validate_names_field_and_rule() {
    let ok = map2d(DataType::F16, [64, 64], 128, [64, 64]);
    ok.validate().unwrap();
    let cases: Vec<(TensorMap, &str)> = vec![
        (TensorMap { rank: 0, ..ok }, "tensorRank"),
        (TensorMap { rank: 6, ..ok }, "tensorRank"),
        (
            TensorMap {
                interleave: Interleave::B16,
                ..ok
            },
            "tensorRank",
        ),
        (
            TensorMap {
                global_address: 0x1008,
                ..ok
            },
            "globalAddress",
        ),
        (
            TensorMap {
                global_dims: [0, 64, 1, 1, 1],
                ..ok
            },
            "globalDim[0]",
        ),
        (
            TensorMap {
                global_dims: [64, (1 << 32) + 1, 1, 1, 1],
                ..ok
            },
            "globalDim[1]",
        ),
        (
            TensorMap {
                global_strides: [120, 0, 0, 0],
                ..ok
            },
            "globalStrides[0]",
        ),
        (
            TensorMap {
                global_strides: [1 << 40, 0, 0, 0],
                ..ok
            },
            "globalStrides[0]",
        ),
        (
            TensorMap {
                box_dims: [64, 0, 1, 1, 1],
                ..ok
            },
            "boxDim[1]",
        ),
        (
            TensorMap {
                box_dims: [64, 257, 1, 1, 1],
                ..ok
            },
            "boxDim[1]",
        ),
        (
            TensorMap {
                box_dims: [4, 64, 1, 1, 1],
                ..ok
            },
            "boxDim[0]",
        ),
        (
            TensorMap {
                element_strides: [1, 9, 1, 1, 1],
                ..ok
            },
            "elementStrides[1]",
        ),
        (
            TensorMap {
                element_strides: [0, 1, 1, 1, 1],
                ..ok
            },
            "elementStrides[0]",
        ),
        (
            TensorMap {
                swizzle: Swizzle::B64,
                ..ok
            },
            "swizzle",
        ),
        (
            TensorMap {
                swizzle: Swizzle::B32,
                atomicity: Atomicity::B32,
                box_dims: [16, 8, 1, 1, 1],
                ..ok
            },
            "swizzleAtomicity",
        ),
        (
            TensorMap {
                data_type: DataType::U16,
                oob_fill: OobFill::NanRequestZeroFma,
                ..ok
            },
            "oobFill",
        ),
    ];
    for (m, field) in cases {
        let e = m.validate().unwrap_err();
        assert_eq!(e.field, field, "{}", m.describe());
        assert!(e.to_string().contains(e.rule) && !e.rule.is_empty());
    }
    // Interleave 32B needs 32B swizzle, rank >= 3 and 32-byte strides.
    let il = TensorMap {
        data_type: DataType::F16,
        rank: 3,
        global_address: 0x1000,
        global_dims: [16, 10, 10, 1, 1],
        global_strides: [32, 320, 0, 0],
        box_dims: [16, 10, 10, 1, 1],
        interleave: Interleave::B32,
        swizzle: Swizzle::B32,
        ..TensorMap::default()
    };
    il.validate().unwrap();
    assert_eq!(
        TensorMap {
            swizzle: Swizzle::None,
            ..il
        }
        .validate()
        .unwrap_err()
        .field,
        "swizzle"
    );
    assert_eq!(
        TensorMap {
            global_strides: [48, 320, 0, 0],
            ..il
        }
        .validate()
        .unwrap_err()
        .field,
        "globalStrides[0]"
    );
    // With interleave too the inner box is a multiple of 16 bytes (PTX 5.5.3.1).
    let e = TensorMap {
        interleave: Interleave::B16,
        swizzle: Swizzle::None,
        box_dims: [3, 10, 10, 1, 1],
        ..il
    }
    .validate()
    .unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.source),
        ("boxDim[0]", "PTX ISA 5.5.3.1")
    );
    // sm_90 lacks the sm_100 atomicities and types.
    let a32 = TensorMap {
        swizzle: Swizzle::B128,
        atomicity: Atomicity::B32,
        ..ok
    };
    a32.validate_on(100).unwrap();
    assert_eq!(a32.validate_on(90).unwrap_err().field, "swizzle");
}

#[test]
fn encoding_round_trips() {
    let mut m = TensorMap {
        data_type: DataType::Bf16,
        rank: 4,
        global_address: 0x7f00_1234_5670,
        global_dims: [1 << 32, 3, 70000, 9, 0],
        global_strides: [(1 << 40) - 16, 32, 48, 0],
        box_dims: [256, 1, 7, 200, 0],
        element_strides: [1, 8, 2, 3, 0],
        interleave: Interleave::B16,
        swizzle: Swizzle::B128,
        atomicity: Atomicity::B64,
        l2_promotion: L2Promotion::B256,
        oob_fill: OobFill::NanRequestZeroFma,
        mode: Mode::Tiled,
    };
    let b = m.to_bytes();
    let back = TensorMap::from_bytes(&b).unwrap();
    // entries past the rank read back as 1 (dims, boxes, strides) and 0 (global strides)
    m.global_dims[4] = 1;
    m.box_dims[4] = 1;
    m.element_strides[4] = 1;
    assert_eq!(back, m);
    m.mode = Mode::Im2col(Im2col {
        lower_corner: [-16, 3, 0],
        upper_corner: [15, -2, 0],
        channels_per_pixel: 256,
        pixels_per_column: 1024,
    });
    assert_eq!(TensorMap::from_bytes(&m.to_bytes()).unwrap(), m);
    let mut junk = b;
    junk[127] ^= 1;
    assert_eq!(TensorMap::from_bytes(&junk).unwrap_err().field, "magic");
    let mut junk = b;
    junk[98] = 9;
    assert_eq!(TensorMap::from_bytes(&junk).unwrap_err().field, "swizzle");
    for t in DataType::ALL {
        assert_eq!(DataType::from_ptx(t.ptx_code()), Some(t));
        assert_eq!(DataType::from_driver(t.driver_code()), Some(t));
    }
    for code in 0..7 {
        let (s, a) = TensorMap::from_driver_swizzle(code).unwrap();
        assert_eq!(
            TensorMap {
                swizzle: s,
                atomicity: a,
                ..m
            }
            .driver_swizzle(),
            Some(code)
        );
    }
}

#[test]
fn tf32_rounds_to_nearest_even() {
    // values an H100 produced (corpus/tensor/sm_90)
    for (f, t) in [
        (0xc956_84b4u32, 0xc956_8000u32),
        (0x9c4a_91f8, 0x9c4a_a000),
        (0x8068_3ad8, 0x8068_4000),
        (0x2267_321d, 0x2267_4000),
    ] {
        assert_eq!(round_tf32(f), t, "{f:08x}");
    }
    assert_eq!(round_tf32(0x3f80_1000), 0x3f80_0000); // tie, even stays
    assert_eq!(round_tf32(0x3f80_3000), 0x3f80_4000); // tie, odd rounds up
    assert_eq!(round_tf32(0x7f7f_ffff), 0x7f80_0000); // to infinity
    assert_eq!(round_tf32(0x7f80_0001), 0x7fff_e000); // every NaN: the H100's
    assert_eq!(round_tf32(0xffd0_7a4c), 0x7fff_e000);
}

#[test]
fn digest_and_pattern_are_stable() {
    // Values the Python side (tools/tensor_sweep.py) computes too.
    assert_eq!(pattern_word(0, 0), 0xe220_a839_7b1d_cdaf);
    assert_eq!(
        pattern_bytes(5, 3, 6),
        pattern_word(5, 0).to_le_bytes()[3..8]
            .iter()
            .copied()
            .chain(pattern_word(5, 1).to_le_bytes()[..1].iter().copied())
            .collect::<Vec<_>>()
    );
    assert_eq!(digest(&[]), 0);
    // tools/tensor_sweep.py --dry prints this ("selftest digest").
    assert_eq!(digest(&pattern_bytes(1, 0, 1024)), 0x0c55_2a3d_8cda_901a);
    assert_ne!(digest(&[0; 16]), digest(&[0; 17]));
    assert_ne!(digest(&[1, 0]), digest(&[0, 1]));
    assert_eq!(poison_word(1), 0x9e37_79b1u32.wrapping_add(0x7f4a_7c15));
}
