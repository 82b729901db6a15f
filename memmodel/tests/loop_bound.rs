//! The loop bound: a spin loop whose flag may be seen on a later turn.
//! Thread 0 adds 1 to `cnt` on each turn and turns again while it reads
//! `x == 0`; thread 1 writes `x = 1`. With the body run at most `k` times,
//! `cnt` ends at most `k`, and every value from 1 to `k` is reachable
//! (thread 0 reads 0 on the first `k - 1` turns, then 1); with the default
//! bound (1, the Dat3M reading) only `cnt == 1`.

use ptx_memmodel::{check, check_bounded, Model, Verdict};

fn test(cnt: u32) -> ptx_litmus::Litmus {
    let src = format!(
        r#"PTX loop{cnt}
{{
x=0;
cnt=0;
P0:r0=0;
P0:r2=0;
}}
 P0@cta 0,gpu 0                        | P1@cta 1,gpu 0            ;
 LC00:                                 | st.relaxed.gpu x, 1       ;
 atom.relaxed.gpu.add r2, cnt, 1       |                           ;
 ld.relaxed.gpu r0, x                  |                           ;
 beq r0, 0, LC00                       |                           ;
exists
(cnt == {cnt})
"#
    );
    ptx_litmus::parse(&src).expect("the test parses")
}

fn reachable(v: Verdict) -> bool {
    v.holds
}

#[test]
fn each_turn_within_the_bound_is_reachable() {
    for model in [Model::Ptx75, Model::Ptx60] {
        for bound in 1..=4u32 {
            for cnt in 1..=5u32 {
                let v = check_bounded(&test(cnt), model, bound).expect("decided");
                assert_eq!(reachable(v), cnt <= bound, "bound {bound}, cnt {cnt}");
            }
        }
        // the default is one turn
        assert!(reachable(check(&test(1), model).unwrap()));
        assert!(!reachable(check(&test(2), model).unwrap()));
    }
}
