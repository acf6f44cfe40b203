//! End-to-end tests of the `ferrocaf` command line: help and errors, `info`, `build` + `run`,
//! and `run prog.f90`. The Fortran tests need gfortran and fail (never skip) without it.

mod common;

use common::{expect_code, fortran_ready, run, text, Scratch, FERROCAF};
use std::path::Path;
use std::process::Command;

/// A `ferrocaf` command with none of the configuration variables of the calling environment.
fn ferrocaf(args: &[&str]) -> Command {
    let mut cmd = Command::new(FERROCAF);
    cmd.args(args);
    for var in [
        "FERROCAF_NUM_IMAGES",
        "GFORTRAN_NUM_IMAGES",
        "FERROCAF_HEAP_SIZE",
        "FERROCAF_SPIN",
        "FERROCAF_CPUS",
        "FERROCAF_EVENTS",
        "FERROCAF_WAIT",
        "FERROCAF_STATS",
        "FERROCAF_JOB",
        "FERROCAF_IMAGE",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// A program printing one line per image.
const TINY: &str = "\
program tiny
  write (*, '(a, i0, a, i0)') 'image ', this_image(), ' of ', num_images()
end program tiny
";

/// The sorted lines `image i of n` that [`TINY`] prints on `n` images.
fn tiny_lines(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("image {i} of {n}")).collect()
}

/// Sorted lines of a captured stream.
fn sorted_lines(bytes: &[u8]) -> Vec<String> {
    let mut lines: Vec<String> = text(bytes).lines().map(str::to_string).collect();
    lines.sort();
    lines
}

#[test]
fn help_describes_every_command() {
    let out = run(&mut ferrocaf(&["--help"]));
    expect_code(&out, 0);
    let top = text(&out.stdout);
    for word in ["Usage: ferrocaf", "build", "run", "info", "Examples"] {
        assert!(top.contains(word), "--help lacks {word:?}:\n{top}");
    }
    for (cmd, word) in [
        ("build", "-fcoarray=lib"),
        ("run", "-np N"),
        ("info", "environment"),
    ] {
        let out = run(&mut ferrocaf(&[cmd, "--help"]));
        expect_code(&out, 0);
        assert!(
            text(&out.stdout).contains(word),
            "{cmd} --help lacks {word:?}"
        );
    }
}

#[test]
fn invalid_image_counts_name_the_option() {
    for (opt, value) in [
        ("-n", "0"),
        ("-n", "-2"),
        ("-np", "many"),
        ("--images", "100000"),
    ] {
        let out = run(&mut ferrocaf(&["run", opt, value, "./prog"]));
        expect_code(&out, 2);
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("{opt} expects")),
            "{opt} {value}: {err}"
        );
        assert!(err.contains("--help"), "no hint to --help: {err}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["frobnicate"][..],
        &["run", "--frobnicate", "x"],
        &["run", "-n", "2"],
        &["build"],
    ] {
        let out = run(&mut ferrocaf(args));
        expect_code(&out, 2);
        assert!(text(&out.stderr).contains("--help"), "{args:?}");
    }
}

#[test]
fn missing_gfortran_is_explained() {
    let out = run(ferrocaf(&["build", "prog.f90"]).env("PATH", "/nonexistent"));
    expect_code(&out, 127);
    assert!(text(&out.stderr)
        .contains("gfortran not found; install it with: sudo apt-get install gfortran"));
}

#[test]
fn info_lists_the_variables() {
    let out = run(&mut ferrocaf(&["info"]));
    expect_code(&out, 0);
    let info = text(&out.stdout);
    for word in [
        "FERROCAF_NUM_IMAGES",
        "FERROCAF_HEAP_SIZE",
        "FERROCAF_EVENTS",
        "shm",
        "events:      atomic",
        "large puts:  ",
        "library:",
        "modules:",
    ] {
        assert!(info.contains(word), "info lacks {word:?}:\n{info}");
    }
    let p2p = run(ferrocaf(&["info"]).env("FERROCAF_EVENTS", "p2p"));
    expect_code(&p2p, 0);
    assert!(text(&p2p.stdout).contains("events:      p2p"));
    let bad = run(ferrocaf(&["info"]).env("FERROCAF_EVENTS", "carrier-pigeon"));
    expect_code(&bad, 1);
    assert!(text(&bad.stdout).contains("events:      INVALID"));
    let abi = run(ferrocaf(&["info"]).env("FERROCAF_GFORTRAN_ABI", "15"));
    expect_code(&abi, 0);
    assert!(
        text(&abi.stdout).contains("gfortran ABI: 15 (gfortran 15, from FERROCAF_GFORTRAN_ABI)")
    );
    assert!(text(&abi.stdout).contains("FERROCAF_GFORTRAN_ABI = 15"));
    let bad = run(ferrocaf(&["info"]).env("FERROCAF_GFORTRAN_ABI", "7"));
    expect_code(&bad, 1);
    assert!(text(&bad.stdout).contains(
        "gfortran ABI: INVALID: FERROCAF_GFORTRAN_ABI=7 is not a gfortran version ferrocaf knows"
    ));
}

/// `info` shows the wait policy, auto by default, FERROCAF_WAIT in any case when set, and
/// reports a value that is not a policy as invalid (exit status 1).
#[test]
fn info_shows_and_checks_the_wait_policy() {
    let info = |var: Option<&str>| {
        let mut cmd = ferrocaf(&["info"]);
        if let Some(v) = var {
            cmd.env("FERROCAF_WAIT", v);
        }
        run(&mut cmd)
    };
    let line = |out: &std::process::Output| {
        let info = text(&out.stdout);
        let line = info.lines().find(|l| l.starts_with("wait:"));
        line.unwrap_or_else(|| panic!("no wait line:\n{info}"))
            .to_string()
    };
    for (var, want) in [
        (None, "auto"),
        (Some("Passive"), "passive"),
        (Some("ACTIVE"), "active"),
    ] {
        let out = info(var);
        expect_code(&out, 0);
        assert_eq!(line(&out), format!("wait:        {want}"));
    }
    let bad = info(Some("busy"));
    expect_code(&bad, 1);
    assert_eq!(
        line(&bad),
        "wait:        INVALID: FERROCAF_WAIT=\"busy\" is not a wait policy (auto, passive or active)"
    );
}

/// The spin budget `info` shows is shared memory's default: 20000 polls when each image has a
/// CPU, none when the images outnumber the CPUs, FERROCAF_SPIN when set.
#[test]
fn info_shows_the_spin_default() {
    let spin = |images: &str, var: Option<&str>| {
        let mut cmd = ferrocaf(&["info"]);
        cmd.env("FERROCAF_NUM_IMAGES", images)
            .env("FERROCAF_CPUS", "2");
        if let Some(v) = var {
            cmd.env("FERROCAF_SPIN", v);
        }
        let out = run(&mut cmd);
        expect_code(&out, 0);
        let info = text(&out.stdout);
        let line = info.lines().find(|l| l.starts_with("spin:"));
        line.unwrap_or_else(|| panic!("no spin line:\n{info}"))
            .to_string()
    };
    assert_eq!(
        spin("2", None),
        "spin:        20000 iterations before a wait sleeps"
    );
    assert_eq!(
        spin("3", None),
        "spin:        0 iterations before a wait sleeps"
    );
    assert_eq!(
        spin("2", Some("5")),
        "spin:        5 iterations before a wait sleeps"
    );
}

#[test]
fn build_then_run_on_three_images() {
    fortran_ready();
    let dir = Scratch::new("build");
    std::fs::write(dir.0.join("tiny.f90"), TINY).unwrap();
    let built = run(ferrocaf(&["build", "tiny.f90", "-o", "tiny"]).current_dir(&dir.0));
    expect_code(&built, 0);
    let out = run(ferrocaf(&["run", "-n", "3", "./tiny"]).current_dir(&dir.0));
    expect_code(&out, 0);
    assert_eq!(sorted_lines(&out.stdout), tiny_lines(3));
}

#[test]
fn run_builds_a_source_file_once() {
    fortran_ready();
    let dir = Scratch::new("source");
    let src = dir.0.join("tiny.f90");
    std::fs::write(&src, TINY).unwrap();
    let cache = dir.0.join("cache");
    for _ in 0..2 {
        let mut cmd = ferrocaf(&["run", "-n", "2", src.to_str().unwrap()]);
        let out = run(cmd.env("XDG_CACHE_HOME", &cache));
        expect_code(&out, 0);
        assert_eq!(sorted_lines(&out.stdout), tiny_lines(2));
    }
    let builds = std::fs::read_dir(cache.join("ferrocaf"))
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("module-")
        })
        .count();
    assert_eq!(builds, 1, "the second run should reuse the first build");
}

#[test]
fn examples_verify_their_results() {
    fortran_ready();
    let dir = Scratch::new("examples");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples_caf");
    let mut sources: Vec<std::path::PathBuf> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "f90"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 9, "examples missing: {sources:?}");
    for src in &sources {
        let name = src.file_name().unwrap().to_str().unwrap();
        let (images, args) = example_plan(name);
        for n in images {
            let mut cmd = ferrocaf(&["run", "-n", n, src.to_str().unwrap()]);
            let out = run(cmd.args(args).env("XDG_CACHE_HOME", &dir.0));
            expect_code(&out, 0);
            assert!(
                text(&out.stdout).contains("Success"),
                "{name} on {n} images: {}",
                text(&out.stdout)
            );
        }
    }
}

/// Image counts and (small) iteration-count argument for one example; 2 and 4 images with the
/// example's defaults unless it needs otherwise.
fn example_plan(name: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match name {
        "pingpong.f90" => (&["2"], &["500"]),
        "p2p_sync_images.f90"
        | "p2p_events.f90"
        | "p2p_attach.f90"
        | "transpose.f90"
        | "ft_transpose.f90" => (&["2", "4"], &["3"]),
        "stencil_events.f90" | "stencil_attach.f90" | "hydro.f90" => (&["2", "4"], &["10"]),
        _ => (&["2", "4"], &[]),
    }
}

#[test]
fn stats_lines_come_in_image_order() {
    fortran_ready();
    let dir = Scratch::new("stats");
    let hello = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples_caf/hello.f90");
    let mut cmd = ferrocaf(&["run", "-n", "4", hello.to_str().unwrap()]);
    let out = run(cmd.env("FERROCAF_STATS", "1").env("XDG_CACHE_HOME", &dir.0));
    expect_code(&out, 0);
    let images: Vec<String> = text(&out.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("ferrocaf stats: image "))
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(images, ["1", "2", "3", "4"], "{}", text(&out.stderr));
}

/// Image 1 posts an event to image 2 2000 times, 20 µs apart, while image 2 waits in SYNC ALL,
/// then image 2 consumes the posts.
const POSTS: &str = "\
program posts
  use, intrinsic :: iso_fortran_env, only: event_type, int64
  implicit none
  type(event_type) :: ev[*]
  integer :: i
  integer(int64) :: t0, t, rate
  sync all
  if (this_image() == 1) then
    call system_clock(count_rate=rate)
    do i = 1, 2000
      event post (ev[2])
      call system_clock(t0)
      do
        call system_clock(t)
        if ((t - t0) * 1000000_int64 >= 20 * rate) exit
      end do
    end do
  end if
  sync all
  if (this_image() == 2) then
    event wait (ev, until_count=2000)
    print '(a)', 'all posts arrived'
  end if
end program posts
";

/// EVENT POST wakes only an image asleep for that event (transport/doorbell.rs's keys): image 2,
/// asleep in SYNC ALL for the 40 ms image 1 spends posting, is woken a handful of times
/// (FERROCAF_STATS' wake-ups), not once for every post that finds it asleep (hundreds to 2000).
#[test]
fn event_posts_do_not_wake_an_image_asleep_in_sync_all() {
    fortran_ready();
    let dir = Scratch::new("posts");
    std::fs::write(dir.0.join("posts.f90"), POSTS).unwrap();
    let mut cmd = ferrocaf(&["run", "-n", "2", "posts.f90"]);
    let out = run(cmd
        .current_dir(&dir.0)
        .env("FERROCAF_STATS", "1")
        .env("FERROCAF_EVENTS", "atomic")
        .env("XDG_CACHE_HOME", &dir.0));
    expect_code(&out, 0);
    assert!(text(&out.stdout).contains("all posts arrived"));
    let stderr = text(&out.stderr);
    let line = stderr
        .lines()
        .find(|l| l.starts_with("ferrocaf stats: image 2:"))
        .unwrap_or_else(|| panic!("no statistics of image 2: {stderr}"));
    let wakeups: u64 = line
        .rsplit_once(" wake-ups ")
        .and_then(|(_, n)| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no wake-ups in {line}"));
    assert!(wakeups < 50, "image 2 was woken {wakeups} times: {line}");
}

/// hello.f90's own check must hold at up to 4096 images (the most ferrocaf starts), where
/// `n*(n+1)*(2n+1)` and the sum of squares no longer fit 32 bits. Starting 4096 images on a
/// small machine takes minutes, so the check's arithmetic runs alone: the program is compiled
/// with `-fcoarray=single`, `num_images()` replaced by the count, and `-ftrapv` (an overflow
/// aborts); its expected sum is then compared with the true one.
#[test]
fn hellos_check_does_not_overflow_at_many_images() {
    fortran_ready();
    let dir = Scratch::new("hello_overflow");
    let hello = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples_caf/hello.f90");
    for n in [1024u64, 4096] {
        let exe = dir.0.join(format!("hello{n}"));
        let out = run(Command::new("gfortran")
            .args([
                "-cpp",
                &format!("-Dnum_images()={n}"),
                "-ftrapv",
                "-fcoarray=single",
            ])
            .arg(&hello)
            .arg("-o")
            .arg(&exe));
        expect_code(&out, 0);
        let out = run(&mut Command::new(&exe));
        let expected = n * (n + 1) * (2 * n + 1) / 6;
        assert!(
            text(&out.stdout).contains(&format!(", expected {expected}")),
            "at {n} images hello.f90 expects the wrong sum:\n{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }
}

/// Editing a file the source includes (Fortran `include`, preprocessor `#include`, nested) or
/// recompiling a module it uses (its `.mod` beside the source) rebuilds the cached program.
#[test]
fn run_source_rebuilds_when_an_include_or_a_used_module_changes() {
    fortran_ready();
    let dir = Scratch::new("deps");
    let d = &dir.0;
    let write = |name: &str, text: &str| std::fs::write(d.join(name), text).unwrap();
    write(
        "prog.F90",
        "program prog\n  use consts\n  include 'a.inc'\n#include \"b.h\"\n  \
         print '(3(a,i0))', 'a=', a, ' b=', b, ' c=', c\nend program prog\n",
    );
    write(
        "b.h",
        "  include 'nested.inc'\n  integer, parameter :: b = 10 * n\n",
    );
    let module = |c: i32| {
        write(
            "consts.f90",
            &format!("module consts\n  integer, parameter :: c = {c}\nend module consts\n"),
        );
        let out = run(Command::new("gfortran")
            .current_dir(d)
            .args(["-c", "consts.f90"]));
        expect_code(&out, 0);
    };
    let check = |expect: &str| {
        let mut cmd = ferrocaf(&["run", "-n", "1", "prog.F90"]);
        let out = run(cmd.current_dir(d).env("XDG_CACHE_HOME", d.join("cache")));
        expect_code(&out, 0);
        assert_eq!(text(&out.stdout).trim(), expect, "stale build");
    };
    write("a.inc", "  integer, parameter :: a = 1\n");
    write("nested.inc", "  integer, parameter :: n = 2\n");
    module(3);
    check("a=1 b=20 c=3");
    write("a.inc", "  integer, parameter :: a = 4\n");
    check("a=4 b=20 c=3");
    write("nested.inc", "  integer, parameter :: n = 5\n");
    check("a=4 b=50 c=3");
    module(6);
    check("a=4 b=50 c=6");
}

/// A build with another `-fcoarray=`, and programs built for another coarray runtime (one
/// image with `-fcoarray=single`; OpenCoarrays through its `caf` wrapper, where installed),
/// are refused with one line saying so, before anything runs.
#[test]
fn programs_not_built_for_ferrocaf_are_refused() {
    fortran_ready();
    let dir = Scratch::new("foreign");
    let src = dir.0.join("tiny.f90");
    std::fs::write(&src, TINY).unwrap();
    let refused = |out: &std::process::Output, what: &str, expect: &str| {
        let err = text(&out.stderr);
        assert!(
            out.status.code() == Some(2) && err.lines().count() == 1 && err.contains(expect),
            "{what}: expected one line with `{expect}`, got {:?}:\n{}{err}",
            out.status,
            text(&out.stdout)
        );
        assert!(!text(&out.stdout).contains("image "), "{what}: it ran");
    };
    let exe = dir.0.join("never");
    let out = run(ferrocaf(&["build", "-fcoarray=single", src.to_str().unwrap(), "-o"]).arg(&exe));
    refused(&out, "ferrocaf build -fcoarray=single", "-fcoarray=single");
    assert!(!exe.exists());
    let out = run(
        ferrocaf(&["run", "-n", "2", "--fflags", "-fcoarray=single"])
            .arg(&src)
            .env("XDG_CACHE_HOME", dir.0.join("cache")),
    );
    refused(
        &out,
        "ferrocaf run --fflags -fcoarray=single",
        "-fcoarray=single",
    );
    let single = dir.0.join("single");
    let out = run(Command::new("gfortran")
        .args(["-fcoarray=single"])
        .arg(&src)
        .arg("-o")
        .arg(&single));
    expect_code(&out, 0);
    let out = run(ferrocaf(&["run", "-n", "2"]).arg(&single));
    refused(&out, "a -fcoarray=single program", "without -fcoarray=lib");
    let opencoarrays = dir.0.join("opencoarrays");
    match Command::new("caf")
        .arg(&src)
        .arg("-o")
        .arg(&opencoarrays)
        .output()
    {
        Ok(o) if o.status.success() => {
            let out = run(ferrocaf(&["run", "-n", "2"]).arg(&opencoarrays));
            refused(&out, "an OpenCoarrays program", "OpenCoarrays");
        }
        _ => eprintln!("OpenCoarrays' caf is not installed: its case is skipped"),
    }
}

/// Every variable `ferrocaf info` lists is in the README's table of environment variables.
#[test]
fn readme_documents_every_variable_info_knows() {
    let out = run(&mut ferrocaf(&["info"]));
    expect_code(&out, 0);
    let info = text(&out.stdout);
    let vars: Vec<&str> = info
        .lines()
        .skip_while(|l| !l.starts_with("Environment variables:"))
        .filter_map(|l| l.strip_prefix("  ")?.split_whitespace().next())
        .filter(|v| v.contains("_NUM_IMAGES") || v.starts_with("FERROCAF_"))
        .collect();
    assert!(vars.len() > 5, "no variables in ferrocaf info:\n{info}");
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("## Environment variables"))
        .take_while(|l| !l.starts_with("## Project layout"))
        .filter(|l| l.starts_with("| `"))
        .collect();
    let missing: Vec<&&str> = vars
        .iter()
        .filter(|v| !table.iter().any(|row| row.contains(&format!("`{v}`"))))
        .collect();
    assert!(missing.is_empty(), "not in the README's table: {missing:?}");
}
