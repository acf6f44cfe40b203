//! Unit checks of the `! test:` header parser used by the `gfortran` harness.

#[path = "gfortran/header.rs"]
mod header;

use header::{parse, Cmp, Exit, Times};
use std::time::Duration;

#[test]
fn full_header() {
    let src = "! Tests things.\n\
               ! test: images 2 4\n\
               !test: exit 3\n\
               ! test: stdout PASS\n\
               ! test: stderr ERROR STOP 3\n\
               ! test: count {n} image ok\n\
               ! test: count 1 done\n\
               ! test: forbid leaked\n\
               ! test: timeout 30\n\
               ! test: env FOO=a=b\n\
               ! test: flags -O3 -fcheck=all\n\
               program p\nend program p\n";
    let h = parse(src).unwrap();
    assert_eq!(h.images, vec![2, 4]);
    assert_eq!(h.exit, Exit::Code(3));
    assert_eq!(h.stdout, vec!["PASS"]);
    assert_eq!(h.stderr, vec!["ERROR STOP 3"]);
    assert_eq!(
        h.counts,
        vec![
            (Times::Images, "image ok".to_string()),
            (Times::Exactly(1), "done".to_string())
        ]
    );
    assert_eq!(h.forbid, vec!["leaked"]);
    assert_eq!(h.timeout, Duration::from_secs(30));
    assert_eq!(h.env, vec![("FOO".to_string(), "a=b".to_string())]);
    assert_eq!(h.flags, vec!["-O3", "-fcheck=all"]);
}

#[test]
fn defaults() {
    let h = parse("! test: images 1\n").unwrap();
    assert_eq!(h.exit, Exit::Code(0));
    assert_eq!(h.timeout, Duration::from_secs(60));
    assert!(h.stdout.is_empty() && h.counts.is_empty() && h.flags.is_empty());
}

#[test]
fn times_and_exit() {
    assert_eq!(Times::Images.resolve(8), 8);
    assert_eq!(Times::Exactly(1).resolve(8), 1);
    assert!(Exit::Nonzero.accepts(137) && !Exit::Nonzero.accepts(0));
    assert!(Exit::Code(3).accepts(3) && !Exit::Code(3).accepts(0));
}

#[test]
fn errors_name_the_line() {
    assert!(parse("program p\nend\n").unwrap_err().contains("images"));
    let e = parse("! test: images 2\n! test: imgaes 4\n").unwrap_err();
    assert!(e.starts_with("line 2: unknown directive `imgaes`"), "{e}");
    assert!(parse("! test: images 0\n").is_err());
    assert!(parse("! test: images 2\n! test: exit\n").is_err());
    assert!(parse("! test: images 2\n! test: timeout soon\n").is_err());
    assert!(parse("! test: images 2\n! test: env FOO\n").is_err());
    assert!(parse("! test: images 2\n! test: count PASS\n").is_err());
    let e = parse("! test: images 2\n! test: requires shm\n").unwrap_err();
    assert!(e.contains("unknown capability `shm`"), "{e}");
}

#[test]
fn vary_multiplies_runs() {
    let h = parse("! test: images 2\n").unwrap();
    assert_eq!(h.variants(), vec![(String::new(), None)]);
    let h = parse("! test: images 2\n! test: vary E=a, b\n").unwrap();
    let v = h.variants();
    assert_eq!(v.len(), 2);
    assert_eq!(
        v[1],
        (
            ", E=b".to_string(),
            Some(("E".to_string(), "b".to_string()))
        )
    );
    assert!(parse("! test: images 2\n! test: vary E=a,,b\n").is_err());
    assert!(parse("! test: images 2\n! test: vary a,b\n").is_err());
}

#[test]
fn scalable_adds_the_oversubscribed_count_once() {
    let h = parse("! test: images 1 3\n! test: scalable\n").unwrap();
    assert_eq!(h.images, vec![1, 3, header::SCALABLE_IMAGES]);
    let h = parse("! test: scalable\n! test: images 16\n").unwrap();
    assert_eq!(h.images, vec![16]);
    assert!(parse("! test: scalable\n").is_err());
}

#[test]
fn compiler_conditions_all_hold_or_name_the_first_failing() {
    let h = parse("! test: images 2\n! test: gfortran >= 15\n! test: gfortran != 16\n").unwrap();
    assert_eq!(h.compilers, vec![(Cmp::AtLeast, 15), (Cmp::Not, 16)]);
    assert_eq!(h.compiler_excluded(15), None);
    assert_eq!(h.compiler_excluded(12).as_deref(), Some(">= 15"));
    assert_eq!(h.compiler_excluded(16).as_deref(), Some("!= 16"));
    assert!(parse("! test: images 2\n! test: gfortran > 15\n")
        .unwrap_err()
        .contains("unknown comparison"));
    assert!(parse("! test: images 2\n! test: gfortran 15\n").is_err());
}
