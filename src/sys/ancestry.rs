//! Process ancestry through /proc: whether this process descends from a given one.

/// Parent of process `pid` (field 4 of `/proc/<pid>/stat`, after the parenthesised name, which
/// may itself contain spaces and parentheses).
fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    after.split_whitespace().nth(1)?.parse().ok()
}

/// Longest chain of wrappers looked through (`gdb` starts a shell that execs the program, so
/// real chains are two or three deep).
const MAX_DEPTH: usize = 32;

/// Whether `ancestor` is this process's parent, grandparent, ... (up to `MAX_DEPTH` levels).
pub fn descends_from(ancestor: i32) -> bool {
    let mut pid = std::process::id() as i32;
    for _ in 0..MAX_DEPTH {
        match parent_of(pid) {
            Some(p) if p == ancestor => return true,
            Some(p) if p > 1 => pid = p,
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_descends_from_its_parent_and_not_from_a_child() {
        let parent = std::os::unix::process::parent_id() as i32;
        assert!(descends_from(parent));
        assert_eq!(parent_of(std::process::id() as i32), Some(parent));
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        assert!(!descends_from(child.id() as i32));
        let _ = child.kill();
        let _ = child.wait();
    }
}
