//! The reports of a hand-built run (passes, failures, skips, errors, an
//! interrupted run): the counts they show are the run's, every string is
//! escaped, the JUnit XML parses and adds up; and reading results files.

mod doc;
mod file;
mod html;
mod junit;
mod markdown;
mod sample;
