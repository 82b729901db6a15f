//! The JUnit XML: well-formed, one suite per family and one case per group,
//! attributes that add up, escaping that survives a parse.

use crate::sample::{self, SCRIPT};
use ptx_reports::{render, Results};
use roxmltree::{Document, Node};

fn attr_u64(n: Node, name: &str) -> u64 {
    n.attribute(name)
        .unwrap_or_else(|| panic!("no {name} on <{}>", n.tag_name().name()))
        .parse()
        .unwrap()
}

fn elements<'a, 'i>(n: Node<'a, 'i>, name: &str) -> Vec<Node<'a, 'i>> {
    n.children().filter(|c| c.has_tag_name(name)).collect()
}

/// Checks that every count attribute is what the children say, and the
/// root's the sum of the suites'.
fn check_sums(doc: &Document) {
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let mut sums = [0u64; 4];
    for suite in elements(root, "testsuite") {
        let cases = elements(suite, "testcase");
        let with = |child: &str| {
            cases
                .iter()
                .filter(|c| !elements(**c, child).is_empty())
                .count() as u64
        };
        let got = [
            cases.len() as u64,
            with("failure"),
            with("error"),
            with("skipped"),
        ];
        let attrs = ["tests", "failures", "errors", "skipped"].map(|a| attr_u64(suite, a));
        assert_eq!(got, attrs, "suite {:?}", suite.attribute("name"));
        for i in 0..4 {
            sums[i] += attrs[i];
        }
    }
    let root_attrs = ["tests", "failures", "errors", "skipped"].map(|a| attr_u64(root, a));
    assert_eq!(sums, root_attrs);
}

fn suites(doc: &Document) -> Vec<String> {
    elements(doc.root_element(), "testsuite")
        .iter()
        .map(|s| s.attribute("name").unwrap().to_string())
        .collect()
}

#[test]
fn one_suite_per_family_one_case_per_group_and_sums_add_up() {
    let r = sample::run();
    let xml = render::junit(&r);
    let doc = Document::parse(&xml).expect("well-formed JUnit XML");
    check_sums(&doc);
    // The families, and `conform` for the interruption.
    assert_eq!(suites(&doc), ["cvt", "ld", "mov", "prmt", "st", "conform"]);
    let root = doc.root_element();
    assert_eq!(attr_u64(root, "tests"), r.groups.len() as u64 + 1);
    assert_eq!(attr_u64(root, "failures"), 2);
    assert_eq!(attr_u64(root, "errors"), 2);
    assert_eq!(attr_u64(root, "skipped"), 2);
    for g in &r.groups {
        let case = doc
            .descendants()
            .find(|n| n.has_tag_name("testcase") && n.attribute("name") == Some(&g.id))
            .unwrap_or_else(|| panic!("no testcase for {}", g.id));
        assert_eq!(case.attribute("classname"), Some(g.family.as_str()));
        assert_eq!(
            case.parent().unwrap().attribute("name"),
            Some(g.family.as_str())
        );
    }
    let interrupted = doc
        .descendants()
        .find(|n| n.has_tag_name("testcase") && n.attribute("classname") == Some("conform"))
        .unwrap();
    let error = elements(interrupted, "error")[0];
    assert_eq!(
        error.attribute("message"),
        Some("the run was interrupted: 8 of the suite's 12 groups ran")
    );
}

#[test]
fn a_complete_run_has_no_conform_suite() {
    let r: Results = sample::passing_run();
    let xml = render::junit(&r);
    let doc = Document::parse(&xml).unwrap();
    check_sums(&doc);
    assert_eq!(suites(&doc), ["cvt", "ld", "mov"]);
    let root = doc.root_element();
    assert_eq!(attr_u64(root, "failures") + attr_u64(root, "errors"), 0);
}

#[test]
fn failure_message_gives_the_count_and_first_failure() {
    let r = sample::run();
    let xml = render::junit(&r);
    let doc = Document::parse(&xml).unwrap();
    let case = doc
        .descendants()
        .find(|n| n.attribute("name") == Some("cvt.rn.f16.f32/edge"))
        .unwrap();
    let failure = elements(case, "failure")[0];
    assert_eq!(
        failure.attribute("message"),
        Some(
            "3 of 13 cases fail; first cvt.rn.f16.f32/edge#4: a = 0x477ff000 (65520) -> \
             expected d = 0x7c00 (inf), actual d = 0x7bff (65504)"
        )
    );
    let body = failure.text().unwrap();
    for f in &r.groups[0].failures {
        assert!(body.contains(&f.case), "{body}");
    }
    assert!(body.contains("PTX ISA 9.7.9.21"), "{body}");
    // prmt: 5 shown of 25.
    let prmt = doc
        .descendants()
        .find(|n| n.attribute("name") == Some("prmt.b32/random"))
        .unwrap();
    let body = elements(prmt, "failure")[0].text().unwrap();
    assert_eq!(
        body.matches("prmt.b32/random#").count(),
        render::JUNIT_FAILURES_PER_GROUP
    );
    assert!(body.contains("20 more failing cases."), "{body}");
}

#[test]
fn reasons_survive_escaping() {
    let mut r = sample::run();
    // A control character XML cannot hold, even as a reference.
    r.groups[4].reason = Some("bell \u{7} here".into());
    let xml = render::junit(&r);
    assert!(!xml.contains(SCRIPT));
    let doc = Document::parse(&xml).expect("well-formed despite markup and controls");
    check_sums(&doc);
    let reason = r.groups[3].reason.as_deref().unwrap();
    let case = doc
        .descendants()
        .find(|n| n.attribute("name") == Some("st.global.u32/edge"))
        .unwrap();
    let error = elements(case, "error")[0];
    assert_eq!(
        error.attribute("message"),
        Some(
            "ptxas said <script>alert(1)</script> & \"quoted\" 'words' / second line\tafter a tab"
        )
    );
    assert!(error.text().unwrap().contains(reason));
    // Markup in a test case's name.
    let name = &r.groups[5].id;
    assert!(doc.descendants().any(|n| n.attribute("name") == Some(name)));
    let skipped = doc
        .descendants()
        .find(|n| n.attribute("name") == Some("ld.global.nc.v2.f32/edge"))
        .unwrap();
    assert_eq!(
        elements(skipped, "skipped")[0].attribute("message"),
        Some("bell \\u{7} here")
    );
}
