//! Maximum-cardinality matching (Edmonds' blossom algorithm, unweighted, O(V³)) and the
//! Gallai–Edmonds decomposition it yields. The Keizer pairing uses it to decide quickly
//! whether a perfect pairing exists, which players may take the bye (those some maximum
//! matching leaves out), and, when no pairing exists, which players are to blame (a
//! Tutte–Berge witness: a barrier set whose removal leaves more odd groups than it has
//! members); the Double-Swiss system to check that a set of players can all be paired.
//!
//! The graph is read through [`Graph`]: adjacency lists (`Vec<Vec<usize>>`), or [`Dense`], a
//! rule saying which pairs are joined, for the nearly complete graphs of a Swiss field where
//! lists would cost `O(V²)` to build for every check.

use std::collections::VecDeque;

const NONE: usize = usize::MAX;

/// An undirected graph as the matching reads it. The neighbours of `v` are looked up by slot:
/// slot `s` (in [`Graph::slots`]) holds vertex [`Graph::at`], which is a neighbour when
/// [`Graph::joined`] says so. The split lets the search test its own cheap conditions on the
/// vertex before the (possibly costly) adjacency test.
pub trait Graph {
    /// Number of vertices (they are `0..len`).
    fn len(&self) -> usize;
    /// Whether the graph has no vertex.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The slots of `v`'s neighbours.
    fn slots(&self, v: usize) -> std::ops::Range<usize>;
    /// The slots that may hold a neighbour of `v` numbered above `v` (the greedy start only
    /// looks there).
    fn later_slots(&self, v: usize) -> std::ops::Range<usize> {
        self.slots(v)
    }
    /// The vertex in slot `s` of `v`.
    fn at(&self, v: usize, s: usize) -> usize;
    /// Whether the vertex in slot `s` of `v` is a neighbour of `v`.
    fn joined(&self, v: usize, s: usize) -> bool;
}

/// Adjacency lists (symmetric, no self-loops).
impl Graph for [Vec<usize>] {
    fn len(&self) -> usize {
        <[Vec<usize>]>::len(self)
    }
    fn slots(&self, v: usize) -> std::ops::Range<usize> {
        0..self[v].len()
    }
    fn at(&self, v: usize, s: usize) -> usize {
        self[v][s]
    }
    fn joined(&self, _: usize, _: usize) -> bool {
        true
    }
}

/// Adjacency lists (symmetric, no self-loops).
impl Graph for Vec<Vec<usize>> {
    fn len(&self) -> usize {
        self.as_slice().len()
    }
    fn slots(&self, v: usize) -> std::ops::Range<usize> {
        0..self[v].len()
    }
    fn at(&self, v: usize, s: usize) -> usize {
        self[v][s]
    }
    fn joined(&self, _: usize, _: usize) -> bool {
        true
    }
}

/// The graph on `0..n` whose pairs `a ≠ b` are joined when `joined(a, b)` (symmetric).
pub struct Dense<F: Fn(usize, usize) -> bool> {
    /// Number of vertices.
    pub n: usize,
    /// Whether two distinct vertices are joined.
    pub joined: F,
}

impl<F: Fn(usize, usize) -> bool> Graph for Dense<F> {
    fn len(&self) -> usize {
        self.n
    }
    fn slots(&self, _: usize) -> std::ops::Range<usize> {
        0..self.n
    }
    fn later_slots(&self, v: usize) -> std::ops::Range<usize> {
        v + 1..self.n
    }
    fn at(&self, _: usize, s: usize) -> usize {
        s
    }
    fn joined(&self, v: usize, s: usize) -> bool {
        v != s && (self.joined)(v, s)
    }
}

/// A maximum matching and the Gallai–Edmonds sets of an undirected graph.
#[derive(Debug, Clone)]
pub struct Decomposition {
    /// Mate of each vertex in one maximum matching.
    pub mate: Vec<Option<usize>>,
    /// `D`: vertices left unmatched by at least one maximum matching.
    pub missable: Vec<bool>,
    /// `A`: neighbours of `D` outside `D` (the Tutte–Berge barrier).
    pub barrier: Vec<usize>,
    /// Connected components of the graph induced on `D` (each is odd).
    pub odd_groups: Vec<Vec<usize>>,
}

struct Search<'a, G: Graph + ?Sized> {
    g: &'a G,
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: VecDeque<usize>,
    /// Vertices the search leaves out (reached by an earlier fruitless search of
    /// [`augment_from`]).
    dead: Vec<bool>,
    /// The vertices whose `used`, `parent` or `base` the last search set (the next search
    /// resets only those).
    touched: Vec<usize>,
    /// The vertices of the current search's tree, each once: the only ones a blossom can
    /// hold, so that contracting one looks at them rather than at the whole graph.
    reached: Vec<usize>,
    /// The bases set in `blossom` by the last contraction (cleared by the next one).
    marked: Vec<usize>,
    /// Scratch for [`Search::lca`]: the bases on the first path, all false between calls.
    seen: Vec<bool>,
}

impl<'a, G: Graph + ?Sized> Search<'a, G> {
    /// A search over `g` from the matching `mate` (`NONE` where a vertex is exposed), with
    /// no vertex left out and every scratch list empty.
    fn new(g: &'a G, mate: Vec<usize>) -> Self {
        let n = g.len();
        Search {
            g,
            mate,
            parent: vec![NONE; n],
            base: (0..n).collect(),
            used: vec![false; n],
            blossom: vec![false; n],
            queue: VecDeque::new(),
            dead: vec![false; n],
            touched: Vec::new(),
            reached: Vec::new(),
            marked: Vec::new(),
            seen: vec![false; n],
        }
    }

    /// A maximum matching of `g`: a greedy start, then one augmenting-path search from each
    /// vertex left exposed.
    fn maximum(g: &'a G) -> Self {
        let n = g.len();
        let mut s = Search::new(g, vec![NONE; n]);
        // Cheap greedy start: each exposed vertex takes its first exposed neighbour. Every
        // neighbour numbered below `v` is matched by now (in its turn, `v` was an exposed
        // neighbour it could take), so only the later slots are looked at.
        for v in 0..n {
            if s.mate[v] == NONE
                && let Some(u) = g
                    .later_slots(v)
                    .find(|&i| s.mate[g.at(v, i)] == NONE && g.joined(v, i))
                    .map(|i| g.at(v, i))
            {
                s.mate[v] = u;
                s.mate[u] = v;
            }
        }
        for v in 0..n {
            if s.mate[v] == NONE {
                let mut u = s.find_path(v);
                while u != NONE {
                    let pv = s.parent[u];
                    let ppv = s.mate[pv];
                    s.mate[u] = pv;
                    s.mate[pv] = u;
                    u = ppv;
                }
            }
        }
        s
    }

    fn mates(&self) -> Vec<Option<usize>> {
        self.mate
            .iter()
            .map(|&m| if m == NONE { None } else { Some(m) })
            .collect()
    }

    fn lca(&mut self, mut a: usize, mut b: usize) -> usize {
        let mut path = Vec::new();
        loop {
            a = self.base[a];
            self.seen[a] = true;
            path.push(a);
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        let found = loop {
            b = self.base[b];
            if self.seen[b] {
                break b;
            }
            b = self.parent[self.mate[b]];
        };
        for a in path {
            self.seen[a] = false;
        }
        found
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            for b in [self.base[v], self.base[self.mate[v]]] {
                self.blossom[b] = true;
                self.marked.push(b);
            }
            self.parent[v] = child;
            self.touched.push(v);
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// Grows an alternating tree from `root`; returns the exposed end of an augmenting path,
    /// or `NONE`. Afterwards `used` marks the even (outer) vertices reached.
    fn find_path(&mut self, root: usize) -> usize {
        for v in std::mem::take(&mut self.touched) {
            self.used[v] = false;
            self.parent[v] = NONE;
            self.base[v] = v;
        }
        self.reached.clear();
        self.reached.push(root);
        self.used[root] = true;
        self.touched.push(root);
        self.queue.clear();
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for slot in self.g.slots(v) {
                let to = self.g.at(v, slot);
                if self.base[v] == self.base[to]
                    || self.mate[v] == to
                    || self.dead[to]
                    || !self.g.joined(v, slot)
                {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let cur = self.lca(v, to);
                    for b in std::mem::take(&mut self.marked) {
                        self.blossom[b] = false;
                    }
                    self.mark_path(v, cur, to);
                    self.mark_path(to, cur, v);
                    // Only a vertex of the tree can have a marked base (every other vertex
                    // is its own base and unmarked); taken in index order, as over the
                    // whole graph.
                    let mut inside: Vec<usize> = self
                        .reached
                        .iter()
                        .copied()
                        .filter(|&i| self.blossom[self.base[i]])
                        .collect();
                    inside.sort_unstable();
                    for i in inside {
                        self.base[i] = cur;
                        self.touched.push(i);
                        if !self.used[i] {
                            self.used[i] = true;
                            self.queue.push_back(i);
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    self.touched.push(to);
                    self.reached.push(to);
                    if self.mate[to] == NONE {
                        return to;
                    }
                    self.used[self.mate[to]] = true;
                    self.touched.push(self.mate[to]);
                    self.reached.push(self.mate[to]);
                    self.queue.push_back(self.mate[to]);
                }
            }
        }
        NONE
    }
}

/// Enlarges the matching `mate` of `g` (`None` for an exposed vertex) along augmenting paths:
/// one search from each of `roots` that is still exposed in its turn. The vertices that a
/// fruitless search reached are left out of the later searches (so every vertex is searched
/// through at most once without success), which may leave some augmenting paths unfound: the
/// result is a larger matching, not necessarily a maximum one.
pub fn augment_from<G: Graph + ?Sized>(
    g: &G,
    mate: &[Option<usize>],
    roots: &[usize],
) -> Vec<Option<usize>> {
    let mut s = Search::new(g, mate.iter().map(|m| m.unwrap_or(NONE)).collect());
    for &v in roots {
        if s.mate[v] != NONE || s.dead[v] {
            continue;
        }
        let mut u = s.find_path(v);
        if u == NONE {
            for &i in &s.touched {
                s.dead[i] = true;
            }
            continue;
        }
        while u != NONE {
            let pv = s.parent[u];
            let ppv = s.mate[pv];
            s.mate[u] = pv;
            s.mate[pv] = u;
            u = ppv;
        }
    }
    s.mates()
}

/// One maximum matching of `g`: each vertex's mate.
pub fn max_matching<G: Graph + ?Sized>(g: &G) -> Vec<Option<usize>> {
    Search::maximum(g).mates()
}

/// The number of edges of a maximum matching of `g`.
pub fn matching_size<G: Graph + ?Sized>(g: &G) -> usize {
    Search::maximum(g)
        .mate
        .iter()
        .filter(|&&m| m != NONE)
        .count()
        / 2
}

/// A maximum matching of `g` and its Gallai–Edmonds decomposition.
pub fn decompose<G: Graph + ?Sized>(g: &G) -> Decomposition {
    let n = g.len();
    let mut s = Search::maximum(g);
    let neighbours = |v: usize| {
        g.slots(v)
            .filter(move |&i| g.joined(v, i))
            .map(move |i| g.at(v, i))
    };
    // D = vertices reachable by an even alternating path from an exposed vertex.
    let mut missable = vec![false; n];
    for v in 0..n {
        if s.mate[v] == NONE {
            let _ = s.find_path(v);
            for (i, &u) in s.used.iter().enumerate() {
                if u {
                    missable[i] = true;
                }
            }
        }
    }
    let mut barrier: Vec<usize> = (0..n)
        .filter(|&v| !missable[v] && neighbours(v).any(|u| missable[u]))
        .collect();
    barrier.sort_unstable();
    let mut comp = vec![NONE; n];
    let mut odd_groups = Vec::new();
    for v in 0..n {
        if missable[v] && comp[v] == NONE {
            let id = odd_groups.len();
            let mut group = vec![v];
            comp[v] = id;
            let mut i = 0;
            while i < group.len() {
                let x = group[i];
                for y in neighbours(x) {
                    if missable[y] && comp[y] == NONE {
                        comp[y] = id;
                        group.push(y);
                    }
                }
                i += 1;
            }
            group.sort_unstable();
            odd_groups.push(group);
        }
    }
    Decomposition {
        mate: s.mates(),
        missable,
        barrier,
        odd_groups,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The adjacency lists of the graph on `n` vertices with the edges `e`.
    pub(in crate::matching) fn adj(n: usize, e: &[(usize, usize)]) -> Vec<Vec<usize>> {
        let mut a = vec![Vec::new(); n];
        for &(x, y) in e {
            a[x].push(y);
            a[y].push(x);
        }
        a
    }

    #[test]
    fn star_has_centre_as_barrier() {
        // centre 0 with leaves 1, 2, 3: one pair at most; the leaves are the missable odd
        // groups {1}, {2}, {3}; the barrier is {0}; deficiency 3 − 1 = 2 unmatched.
        let d = decompose(&adj(4, &[(0, 1), (0, 2), (0, 3)]));
        assert_eq!(d.mate.iter().filter(|m| m.is_none()).count(), 2);
        assert_eq!(d.barrier, vec![0]);
        assert_eq!(d.odd_groups, vec![vec![1], vec![2], vec![3]]);
    }

    #[test]
    fn dense_rules_odd_cycle_and_pendant() {
        // A triangle 0-1-2 with 3 hanging on 2: perfect matching 0-1, 2-3 exists.
        let e = [(0, 1), (1, 2), (0, 2), (2, 3)];
        let joined = |a: usize, b: usize| e.contains(&(a, b)) || e.contains(&(b, a));
        assert_eq!(matching_size(&Dense { n: 4, joined }), 2);
        // Two triangles joined by one edge (0-1-2, 3-4-5, 2-3): a perfect matching of 3 pairs.
        let e = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)];
        let joined = |a: usize, b: usize| e.contains(&(a, b)) || e.contains(&(b, a));
        assert_eq!(matching_size(&Dense { n: 6, joined }), 3);
        // A star: only one pair.
        let joined = |a: usize, b: usize| (a == 0) != (b == 0);
        assert_eq!(matching_size(&Dense { n: 4, joined }), 1);
    }

    #[test]
    fn odd_cycle_every_vertex_missable() {
        // a 5-cycle: any vertex can be left out
        let d = decompose(&adj(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]));
        assert!(d.missable.iter().all(|&m| m));
        assert!(d.barrier.is_empty());
    }

    #[test]
    fn path_of_three_only_ends_missable() {
        // 0-1-2: a maximum matching leaves out 0 or 2, never 1
        let d = decompose(&adj(3, &[(0, 1), (1, 2)]));
        assert_eq!(d.missable, vec![true, false, true]);
        assert_eq!(d.barrier, vec![1]);
    }

    /// The size of a maximum matching by exhaustive search: the lowest vertex is left out or
    /// matched to each of its neighbours in turn.
    fn brute(n: usize, joined: &dyn Fn(usize, usize) -> bool, used: &mut Vec<bool>) -> usize {
        let Some(v) = (0..n).find(|&v| !used[v]) else {
            return 0;
        };
        used[v] = true;
        let mut best = brute(n, joined, used);
        for u in v + 1..n {
            if !used[u] && joined(v, u) {
                used[u] = true;
                best = best.max(1 + brute(n, joined, used));
                used[u] = false;
            }
        }
        used[v] = false;
        best
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn random_graphs_match_brute_force() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..400 {
            let n = rng.random_range(1..13usize);
            let density = rng.random_range(1..=9);
            let mut m = vec![vec![false; n]; n];
            let mut e = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.random_range(0..10) < density {
                        m[a][b] = true;
                        m[b][a] = true;
                        e.push((a, b));
                    }
                }
            }
            let joined = |a: usize, b: usize| m[a][b];
            let want = brute(n, &joined, &mut vec![false; n]);
            let lists = adj(n, &e);
            let dense = Dense { n, joined };
            for mate in [max_matching(&lists), max_matching(&dense)] {
                for (v, &u) in mate.iter().enumerate() {
                    if let Some(u) = u {
                        assert_eq!(mate[u], Some(v));
                        assert!(m[v][u], "{v}-{u} is no edge");
                    }
                }
                assert_eq!(
                    mate.iter().filter(|x| x.is_some()).count(),
                    2 * want,
                    "{e:?}"
                );
            }
            assert_eq!(matching_size(&lists), want);
            assert_eq!(matching_size(&dense), want);
        }
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn dense_and_lists_decompose_alike() {
        // The Gallai–Edmonds sets do not depend on the maximum matching found.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..200 {
            let n = rng.random_range(1..30usize);
            let mut m = vec![vec![false; n]; n];
            let mut e = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.random_range(0..10) < 2 {
                        m[a][b] = true;
                        m[b][a] = true;
                        e.push((a, b));
                    }
                }
            }
            let l = decompose(&adj(n, &e));
            let d = decompose(&Dense {
                n,
                joined: |a: usize, b: usize| m[a][b],
            });
            assert_eq!(l.missable, d.missable);
            assert_eq!(l.barrier, d.barrier);
            assert_eq!(l.odd_groups, d.odd_groups);
        }
    }

    #[test]
    fn augment_from_flips_the_paths_from_its_roots() {
        // Path 0-1-2-3 with 1-2 matched: from 0 the path 0-1-2-3 gives 0-1 and 2-3.
        let g = adj(4, &[(0, 1), (1, 2), (2, 3)]);
        let start = [None, Some(2), Some(1), None];
        assert_eq!(
            augment_from(&g, &start, &[0]),
            [Some(1), Some(0), Some(3), Some(2)]
        );
        // Root 5, then 0 (matched to 1), and a triangle 1-2-3 (2-3 matched) with a pendant
        // 3-4: the only augmenting path is 5-0-1-2-3-4.
        let g = adj(6, &[(5, 0), (0, 1), (1, 2), (1, 3), (2, 3), (3, 4)]);
        let start = [Some(1), Some(0), Some(3), Some(2), None, None];
        assert_eq!(
            augment_from(&g, &start, &[5]),
            [Some(5), Some(2), Some(1), Some(4), Some(3), Some(0)]
        );
        // No path from a root that is already matched or has none: nothing changes.
        let g = adj(4, &[(0, 1), (1, 2)]);
        let start = [None, Some(2), Some(1), None];
        assert_eq!(augment_from(&g, &start, &[3, 1]), start);
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// From any matching: a matching of the graph, every vertex matched before still
        /// matched, no smaller than the start and no larger than a maximum matching.
        #[test]
        fn augment_from_keeps_a_matching_and_grows_it(
            n in 1usize..14,
            raw in proptest::collection::vec((0usize..14, 0usize..14), 0..40),
            keep in proptest::collection::vec(proptest::bool::ANY, 14),
        ) {
            let mut e: Vec<(usize, usize)> = Vec::new();
            for (a, b) in raw {
                let (a, b) = (a % n, b % n);
                if a != b && !e.contains(&(a, b)) && !e.contains(&(b, a)) {
                    e.push((a, b));
                }
            }
            let g = adj(n, &e);
            // A start: some edges of the graph, taken greedily where both ends are free.
            let mut start = vec![None; n];
            for (i, &(a, b)) in e.iter().enumerate() {
                if keep[i % 14] && start[a].is_none() && start[b].is_none() {
                    start[a] = Some(b);
                    start[b] = Some(a);
                }
            }
            let roots: Vec<usize> = (0..n).collect();
            let m = augment_from(&g, &start, &roots);
            for v in 0..n {
                if let Some(u) = m[v] {
                    prop_assert_eq!(m[u], Some(v));
                    prop_assert!(g[v].contains(&u));
                }
                if start[v].is_some() {
                    prop_assert!(m[v].is_some());
                }
            }
            let size = m.iter().filter(|x| x.is_some()).count() / 2;
            prop_assert!(size >= start.iter().filter(|x| x.is_some()).count() / 2);
            prop_assert!(size <= matching_size(&g));
        }
    }
}
