//! Matching of arrived notifications against persistent requests (Notified Access §III):
//! arrivals wait in an unexpected list in arrival order; a started request consumes matching
//! arrivals (source and tag, each possibly ANY) until it has seen its count.
//!
//! The unexpected list is indexed by arrival number, by source, by tag and by (source, tag), so
//! taking the oldest `k` matches of any filter costs O(k log n), however many arrivals from
//! other sources or with other tags are waiting.

use crate::error::{CafError, CafResult};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map keyed by sources and tags of this job's own images, with a multiplicative hash:
/// no flooding to defend against, and SipHash cost about a thousand instructions per matched
/// event (a third of an EVENT WAIT with `FERROCAF_EVENTS=p2p`).
type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<MixHasher>>;

/// Folds each integer written into the state with a rotate-xor-multiply step.
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        // The table indexes by the low bits: fold the well-mixed high bits into them.
        self.0 ^ (self.0 >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(b as u64));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(23) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// What arrived: who sent it, with which tag, and which bytes it covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// 0-based initial-team index of the sender.
    pub source: u32,
    /// Tag.
    pub tag: u64,
    /// Bytes moved by the notified access.
    pub bytes: u32,
    /// Target offset of the access.
    pub offset: u64,
}

/// Which arrivals a request accepts; `None` is a wildcard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Required sender, or any.
    pub source: Option<u32>,
    /// Required tag, or any.
    pub tag: Option<u64>,
}

impl Filter {
    /// Whether `a` passes.
    pub fn accepts(&self, a: &Arrival) -> bool {
        self.source.is_none_or(|s| s == a.source) && self.tag.is_none_or(|t| t == a.tag)
    }
}

/// A persistent request.
#[derive(Clone, Debug)]
struct Request {
    filter: Filter,
    count: u64,
    matched: u64,
    active: bool,
    last: Option<Arrival>,
}

/// Arrivals not yet matched, in arrival order, with indexes for every filter form.
#[derive(Debug, Default)]
struct Unexpected {
    next: u64,
    all: BTreeMap<u64, Arrival>,
    by_source: HashMap<u32, BTreeSet<u64>>,
    by_tag: HashMap<u64, BTreeSet<u64>>,
    by_pair: HashMap<(u32, u64), BTreeSet<u64>>,
}

impl Unexpected {
    fn push(&mut self, a: Arrival) {
        let k = self.next;
        self.next += 1;
        self.all.insert(k, a);
        self.by_source.entry(a.source).or_default().insert(k);
        self.by_tag.entry(a.tag).or_default().insert(k);
        self.by_pair.entry((a.source, a.tag)).or_default().insert(k);
    }

    /// Arrival numbers passing `f`, oldest first.
    fn matching(&self, f: Filter) -> Box<dyn Iterator<Item = u64> + '_> {
        let set = match (f.source, f.tag) {
            (None, None) => return Box::new(self.all.keys().copied()),
            (Some(s), None) => self.by_source.get(&s),
            (None, Some(t)) => self.by_tag.get(&t),
            (Some(s), Some(t)) => self.by_pair.get(&(s, t)),
        };
        Box::new(set.into_iter().flat_map(|s| s.iter().copied()))
    }

    fn count(&self, f: Filter) -> u64 {
        let set = match (f.source, f.tag) {
            (None, None) => return self.all.len() as u64,
            (Some(s), None) => self.by_source.get(&s),
            (None, Some(t)) => self.by_tag.get(&t),
            (Some(s), Some(t)) => self.by_pair.get(&(s, t)),
        };
        set.map_or(0, |s| s.len() as u64)
    }

    fn remove(&mut self, k: u64) -> Arrival {
        let a = self.all.remove(&k).expect("indexed arrival exists");
        let drop_from = |m: &mut BTreeSet<u64>| {
            m.remove(&k);
            m.is_empty()
        };
        if self.by_source.get_mut(&a.source).is_some_and(drop_from) {
            self.by_source.remove(&a.source);
        }
        if self.by_tag.get_mut(&a.tag).is_some_and(drop_from) {
            self.by_tag.remove(&a.tag);
        }
        if self
            .by_pair
            .get_mut(&(a.source, a.tag))
            .is_some_and(drop_from)
        {
            self.by_pair.remove(&(a.source, a.tag));
        }
        a
    }
}

/// The unexpected list and the request table of one image.
#[derive(Debug, Default)]
pub struct Matcher {
    unexpected: Unexpected,
    requests: Vec<Option<Request>>,
}

fn no_such(id: usize) -> CafError {
    CafError::InvalidArgument(format!(
        "notification request {id} does not exist (never created, or freed)"
    ))
}

impl Matcher {
    /// Records an arrival.
    pub fn arrive(&mut self, a: Arrival) {
        self.unexpected.push(a);
    }

    /// Creates an inactive request for `count` arrivals passing `filter`; returns its id.
    pub fn init(&mut self, filter: Filter, count: u64) -> CafResult<usize> {
        if count == 0 {
            return Err(CafError::InvalidArgument(
                "a notification request needs a count of at least 1".into(),
            ));
        }
        let r = Some(Request {
            filter,
            count,
            matched: 0,
            active: false,
            last: None,
        });
        match self.requests.iter().position(Option::is_none) {
            Some(i) => {
                self.requests[i] = r;
                Ok(i)
            }
            None => {
                self.requests.push(r);
                Ok(self.requests.len() - 1)
            }
        }
    }

    fn get(&mut self, id: usize) -> CafResult<&mut Request> {
        self.requests
            .get_mut(id)
            .and_then(Option::as_mut)
            .ok_or_else(|| no_such(id))
    }

    /// Arms a request (again) for its count.
    pub fn start(&mut self, id: usize) -> CafResult<()> {
        let r = self.get(id)?;
        if r.active {
            return Err(CafError::InvalidArgument(format!(
                "notification request {id} is already started"
            )));
        }
        r.active = true;
        r.matched = 0;
        Ok(())
    }

    /// Consumes matching arrivals for an active request; once it has its count, it completes
    /// (becomes inactive) and this returns the last match.
    pub fn test(&mut self, id: usize) -> CafResult<Option<Arrival>> {
        let mut r = self.get(id)?.clone();
        if !r.active {
            return Err(CafError::InvalidArgument(format!(
                "notification request {id} is tested or waited on but was never started"
            )));
        }
        let want = r.count - r.matched;
        let got = self.take(r.filter, want, false);
        r.matched += got.0;
        if got.1.is_some() {
            r.last = got.1;
        }
        let done = r.matched == r.count;
        if done {
            r.active = false;
        }
        let last = r.last;
        *self.get(id)? = r;
        Ok(if done { last } else { None })
    }

    /// Removes up to `k` arrivals passing `filter` (all `k` or none when `all_or_nothing`),
    /// oldest first; returns how many and the last one taken.
    pub fn take(&mut self, filter: Filter, k: u64, all_or_nothing: bool) -> (u64, Option<Arrival>) {
        if all_or_nothing && self.unexpected.count(filter) < k {
            return (0, None);
        }
        let hits: Vec<u64> = self.unexpected.matching(filter).take(k as usize).collect();
        let last = hits.iter().map(|&h| self.unexpected.remove(h)).last();
        (hits.len() as u64, last)
    }

    /// Arrivals waiting that pass `filter`.
    pub fn count(&self, filter: Filter) -> u64 {
        self.unexpected.count(filter)
    }

    /// Deletes a request.
    pub fn free(&mut self, id: usize) -> CafResult<()> {
        self.get(id)?;
        self.requests[id] = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(source: u32, tag: u64) -> Arrival {
        Arrival {
            source,
            tag,
            bytes: 0,
            offset: 0,
        }
    }
    const ANY: Filter = Filter {
        source: None,
        tag: None,
    };

    #[test]
    fn wildcard_matches_in_arrival_order() {
        let mut m = Matcher::default();
        let r = m.init(ANY, 2).unwrap();
        m.start(r).unwrap();
        m.arrive(a(3, 7));
        assert_eq!(m.test(r).unwrap(), None);
        m.arrive(a(1, 9));
        m.arrive(a(2, 9));
        assert_eq!(
            m.test(r).unwrap(),
            Some(a(1, 9)),
            "status is the last match"
        );
        assert_eq!(m.count(ANY), 1, "the third arrival stays unexpected");
    }

    #[test]
    fn source_and_tag_filters() {
        let mut m = Matcher::default();
        for (s, t) in [(1, 5), (2, 5), (1, 6), (2, 6)] {
            m.arrive(a(s, t));
        }
        let r = m
            .init(
                Filter {
                    source: Some(2),
                    tag: None,
                },
                2,
            )
            .unwrap();
        m.start(r).unwrap();
        assert_eq!(m.test(r).unwrap(), Some(a(2, 6)));
        let r2 = m
            .init(
                Filter {
                    source: None,
                    tag: Some(6),
                },
                1,
            )
            .unwrap();
        m.start(r2).unwrap();
        assert_eq!(m.test(r2).unwrap(), Some(a(1, 6)));
        assert_eq!(m.count(ANY), 1);
    }

    #[test]
    fn persistent_request_restarts() {
        let mut m = Matcher::default();
        let r = m
            .init(
                Filter {
                    source: None,
                    tag: Some(1),
                },
                1,
            )
            .unwrap();
        for k in 0..3 {
            m.start(r).unwrap();
            m.arrive(a(k, 1));
            assert_eq!(m.test(r).unwrap(), Some(a(k, 1)));
        }
    }

    #[test]
    fn misuse_is_an_error() {
        let mut m = Matcher::default();
        let r = m.init(ANY, 1).unwrap();
        assert!(m.test(r).is_err(), "never started");
        m.start(r).unwrap();
        assert!(m.start(r).is_err(), "started twice");
        m.free(r).unwrap();
        assert!(m.test(r).is_err() && m.free(r).is_err(), "freed");
        assert!(m.init(ANY, 0).is_err());
        assert_eq!(m.init(ANY, 1).unwrap(), r, "slot reused");
    }

    #[test]
    fn take_all_or_nothing() {
        let mut m = Matcher::default();
        m.arrive(a(0, 4));
        let f = Filter {
            source: None,
            tag: Some(4),
        };
        assert_eq!(m.take(f, 2, true), (0, None));
        m.arrive(a(1, 4));
        assert_eq!(m.take(f, 2, true), (2, Some(a(1, 4))));
    }
}
