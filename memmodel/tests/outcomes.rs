//! Every outcome of a test, decided one by one (`ptx_memmodel::outcomes`).
//! The expectations are the textbook answers for message passing and
//! store buffering under the PTX model (PTX ISA 8.10: relaxed accesses to
//! different locations are not ordered; a release store read by an acquire
//! load synchronizes), not outputs of the code.

use ptx_memmodel::{outcomes, Model};

fn decide(src: &str) -> Vec<(Vec<i64>, bool)> {
    let test = ptx_litmus::parse(src).expect("parses");
    outcomes(&test, Model::Ptx75).expect("decided").outcomes
}

const MP: &str = r#"PTX MP
{
x = 0;
y = 0;
}
 P0@cta 0,gpu 0          | P1@cta 1,gpu 0          ;
 st.relaxed.gpu x, 1     | ld.SEM.gpu r0, y        ;
 st.WSEM.gpu y, 1        | ld.relaxed.gpu r1, x    ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
"#;

#[test]
fn relaxed_message_passing_allows_all_four_outcomes() {
    let src = MP.replace("WSEM", "relaxed").replace("SEM", "relaxed");
    let got = decide(&src);
    assert_eq!(
        got,
        vec![
            (vec![0, 0], true),
            (vec![0, 1], true),
            (vec![1, 0], true),
            (vec![1, 1], true)
        ]
    );
}

#[test]
fn release_acquire_message_passing_forbids_the_stale_read() {
    let src = MP.replace("WSEM", "release").replace("SEM", "acquire");
    let test = ptx_litmus::parse(&src).unwrap();
    let o = outcomes(&test, Model::Ptx75).unwrap();
    assert!(o.allowed(&[0, 0]) && o.allowed(&[0, 1]) && o.allowed(&[1, 1]));
    assert!(!o.allowed(&[1, 0]));
    // values no execution can produce are not allowed either
    assert!(!o.allowed(&[2, 0]));
    assert_eq!(o.terms.len(), 2);
}

#[test]
fn final_memory_values_are_outcomes_too() {
    // 2+2W with sc fences: x == 1 /\ y == 1 would need both first stores
    // last in coherence order.
    let src = r#"PTX 2+2W
{
x = 0;
y = 0;
}
 P0@cta 0,gpu 0   | P1@cta 1,gpu 0   ;
 st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;
 fence.sc.gpu     | fence.sc.gpu     ;
 st.relaxed.gpu y, 2 | st.relaxed.gpu x, 2 ;
exists (x == 1 /\ y == 1)
"#;
    let got = decide(src);
    let allowed: Vec<Vec<i64>> = got.iter().filter(|o| o.1).map(|o| o.0.clone()).collect();
    assert_eq!(allowed, vec![vec![1, 2], vec![2, 1], vec![2, 2]]);
    // the domains include the initial value, never a final one here
    assert!(got.iter().any(|(v, ok)| v == &vec![0, 0] && !ok));
}
