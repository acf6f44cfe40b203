//! The `! test:` header of a program in `gfortran_tests/`: what to run and what to expect.
//!
//! Every line whose text starts with `! test:` is a directive (anywhere in the file; by
//! convention they sit at the top):
//!
//! ```text
//! ! test: images 2 4            run once per image count (required)
//! ! test: exit 3                expected exit status (default 0); `exit nonzero` accepts any non-zero
//! ! test: stdout PASS           some stdout line contains this text (repeatable)
//! ! test: stderr ERROR STOP 3   some stderr line contains this text (repeatable)
//! ! test: count {n} PASS        exactly that many stdout lines contain the text ({n} = image count)
//! ! test: forbid panicked       the text appears in neither stream (repeatable)
//! ! test: timeout 30            seconds (default 60)
//! ! test: env NAME=VALUE        extra environment (repeatable)
//! ! test: flags -O3             extra gfortran flags (repeatable, appended)
//! ! test: vary NAME=a,b,c       run every image count once per value of NAME
//! ! test: scalable              also run on SCALABLE_IMAGES (16) images: for programs correct on
//!                               any image count (oversubscription: 16 images on a few cores)
//! ! test: requires supervisor   needs ferrocaf's own launcher (skipped under
//!                               FERROCAF_TEST_LAUNCHER, see launcher.rs)
//! ! test: requires shared-window  needs on-node images to share memory (skipped under the
//!                               launcher when FERROCAF_MPI_SHM=0)
//! ! test: requires mapped-peers needs every image to map every other's memory: as
//!                               shared-window, and skipped too when FERROCAF_TEST_HOSTS > 1
//!                               (the images spread over hosts)
//! ! test: requires rma-only     runs only under the launcher with FERROCAF_MPI_SHM=0
//! ! test: requires steady-memory  checks that resident memory stays flat (skipped over the
//!                               fabric transport's tcp provider, see launcher.rs)
//! ! test: gfortran >= 15        run only when the gfortran on PATH has this major version
//!                               (`>=`, `<=`, `==`, `!=`; repeatable, all must hold): for
//!                               programs only some compilers compile right (docs/ARCHITECTURE.md,
//!                               "ABI limits")
//! ```

use std::time::Duration;

/// The capabilities `! test: requires` may name (launcher.rs says which runs lack each).
const CAPABILITIES: [&str; 5] = [
    "supervisor",
    "shared-window",
    "mapped-peers",
    "rma-only",
    "steady-memory",
];

/// The image count a `scalable` program also runs on.
pub const SCALABLE_IMAGES: usize = 16;

/// The exit status a run must end with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Exactly this code.
    Code(i32),
    /// Any code other than 0.
    Nonzero,
}

impl Exit {
    /// Whether a process exit code satisfies this expectation.
    pub fn accepts(self, code: i32) -> bool {
        match self {
            Exit::Code(c) => c == code,
            Exit::Nonzero => code != 0,
        }
    }
}

/// How many stdout lines a `count` directive requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Times {
    /// `{n}`: the number of images of the run.
    Images,
    /// A fixed number.
    Exactly(usize),
}

impl Times {
    /// The required number of lines for a run on `images` images.
    pub fn resolve(self, images: usize) -> usize {
        match self {
            Times::Images => images,
            Times::Exactly(k) => k,
        }
    }
}

/// Everything the header of one test program says.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// Image counts to run with, in order.
    pub images: Vec<usize>,
    /// Expected exit status.
    pub exit: Exit,
    /// Texts that must each appear in some stdout line.
    pub stdout: Vec<String>,
    /// Texts that must each appear in some stderr line.
    pub stderr: Vec<String>,
    /// Texts with the exact number of stdout lines that must contain them.
    pub counts: Vec<(Times, String)>,
    /// Texts that must appear in neither stream.
    pub forbid: Vec<String>,
    /// Time after which the run is killed and fails.
    pub timeout: Duration,
    /// Extra environment variables.
    pub env: Vec<(String, String)>,
    /// Extra gfortran flags.
    pub flags: Vec<String>,
    /// A variable whose values each get a run per image count.
    pub vary: Option<(String, Vec<String>)>,
    /// Capabilities the test needs (`supervisor`: ferrocaf's own launcher; `shared-window`).
    pub requires: Vec<String>,
    /// Conditions on the gfortran major version, all of which must hold.
    pub compilers: Vec<(Cmp, u32)>,
}

/// A comparison of the `gfortran` directive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `>=`
    AtLeast,
    /// `<=`
    AtMost,
    /// `==`
    Equal,
    /// `!=`
    Not,
}

impl Header {
    /// The first `gfortran` condition that gfortran `major` fails, as text (`>= 15`), if any.
    pub fn compiler_excluded(&self, major: u32) -> Option<String> {
        self.compilers.iter().find_map(|&(cmp, v)| {
            let (holds, op) = match cmp {
                Cmp::AtLeast => (major >= v, ">="),
                Cmp::AtMost => (major <= v, "<="),
                Cmp::Equal => (major == v, "=="),
                Cmp::Not => (major != v, "!="),
            };
            (!holds).then(|| format!("{op} {v}"))
        })
    }
}

impl Header {
    /// The environment variants to run: `(label suffix, extra variable)` pairs; one empty
    /// variant without `vary`.
    pub fn variants(&self) -> Vec<(String, Option<(String, String)>)> {
        match &self.vary {
            None => vec![(String::new(), None)],
            Some((name, values)) => values
                .iter()
                .map(|v| (format!(", {name}={v}"), Some((name.clone(), v.clone()))))
                .collect(),
        }
    }
}

/// Parses the header of a program's source text; the error names the offending line.
pub fn parse(source: &str) -> Result<Header, String> {
    let mut h = Header {
        images: Vec::new(),
        exit: Exit::Code(0),
        stdout: Vec::new(),
        stderr: Vec::new(),
        counts: Vec::new(),
        forbid: Vec::new(),
        timeout: Duration::from_secs(60),
        env: Vec::new(),
        flags: Vec::new(),
        vary: None,
        requires: Vec::new(),
        compilers: Vec::new(),
    };
    let mut scalable = false;
    for (no, line) in source.lines().enumerate() {
        let Some(directive) = directive(line) else {
            continue;
        };
        if directive == "scalable" {
            scalable = true;
            continue;
        }
        apply(&mut h, directive).map_err(|e| format!("line {}: {e}: {}", no + 1, line.trim()))?;
    }
    if h.images.is_empty() {
        return Err("no `! test: images N...` line".into());
    }
    if scalable && !h.images.contains(&SCALABLE_IMAGES) {
        h.images.push(SCALABLE_IMAGES);
    }
    Ok(h)
}

/// The text after `! test:` if `line` is a directive.
fn directive(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('!')?.trim_start();
    Some(rest.strip_prefix("test:")?.trim())
}

/// Applies one directive (`key rest...`) to the header.
fn apply(h: &mut Header, directive: &str) -> Result<(), String> {
    let (key, rest) = directive
        .split_once(char::is_whitespace)
        .map(|(k, r)| (k, r.trim()))
        .unwrap_or((directive, ""));
    if rest.is_empty() {
        return Err(format!("`{key}` needs a value"));
    }
    match key {
        "images" => {
            for w in rest.split_whitespace() {
                match w.parse::<usize>() {
                    Ok(n) if n > 0 => h.images.push(n),
                    _ => return Err(format!("bad image count `{w}`")),
                }
            }
        }
        "exit" => {
            h.exit = match rest {
                "nonzero" => Exit::Nonzero,
                _ => Exit::Code(number(rest)?),
            }
        }
        "stdout" => h.stdout.push(rest.to_string()),
        "stderr" => h.stderr.push(rest.to_string()),
        "count" => {
            let (n, text) = rest
                .split_once(char::is_whitespace)
                .ok_or("`count` needs a number and a text")?;
            let times = match n {
                "{n}" => Times::Images,
                _ => Times::Exactly(number(n)?),
            };
            h.counts.push((times, text.trim().to_string()));
        }
        "forbid" => h.forbid.push(rest.to_string()),
        "requires" if CAPABILITIES.contains(&rest) => h.requires.push(rest.to_string()),
        "requires" => {
            return Err(format!(
                "unknown capability `{rest}` (known: {})",
                CAPABILITIES.join(", ")
            ))
        }
        "vary" => {
            let (name, values) = rest.split_once('=').ok_or("`vary` needs NAME=a,b,...")?;
            let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
            if name.trim().is_empty() || values.iter().any(String::is_empty) {
                return Err("`vary` needs NAME=a,b,...".into());
            }
            h.vary = Some((name.trim().to_string(), values));
        }
        "timeout" => h.timeout = Duration::from_secs(number(rest)?),
        "env" => {
            let (name, value) = rest.split_once('=').ok_or("`env` needs NAME=VALUE")?;
            h.env.push((name.trim().to_string(), value.to_string()));
        }
        "flags" => h.flags.extend(rest.split_whitespace().map(str::to_string)),
        "gfortran" => {
            let (op, v) = rest
                .split_once(char::is_whitespace)
                .ok_or("`gfortran` needs a comparison and a major version, e.g. `>= 15`")?;
            let cmp = match op {
                ">=" => Cmp::AtLeast,
                "<=" => Cmp::AtMost,
                "==" => Cmp::Equal,
                "!=" => Cmp::Not,
                _ => return Err(format!("unknown comparison `{op}` (known: >= <= == !=)")),
            };
            h.compilers.push((cmp, number(v.trim())?));
        }
        _ => return Err(format!("unknown directive `{key}`")),
    }
    Ok(())
}

/// Parses a number, naming it in the error.
fn number<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("`{s}` is not a number"))
}
