//! Maximum-cardinality matching (Edmonds' blossom algorithm, unweighted) and the
//! Gallai–Edmonds decomposition it yields. The pairing uses it to decide quickly whether a
//! perfect pairing exists, which players may take the bye (those some maximum matching
//! leaves out), and, when no pairing exists, which players are to blame (a Tutte–Berge
//! witness: a barrier set whose removal leaves more odd groups than it has members).

use std::collections::VecDeque;

const NONE: usize = usize::MAX;

/// A maximum matching and the Gallai–Edmonds sets of an undirected graph.
#[derive(Debug, Clone)]
pub(crate) struct Decomposition {
    /// Mate of each vertex in one maximum matching.
    pub mate: Vec<Option<usize>>,
    /// `D`: vertices left unmatched by at least one maximum matching.
    pub missable: Vec<bool>,
    /// `A`: neighbours of `D` outside `D` (the Tutte–Berge barrier).
    pub barrier: Vec<usize>,
    /// Connected components of the graph induced on `D` (each is odd).
    pub odd_groups: Vec<Vec<usize>>,
}

struct Search<'a> {
    adj: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: VecDeque<usize>,
}

impl Search<'_> {
    fn lca(&self, mut a: usize, mut b: usize) -> usize {
        let n = self.adj.len();
        let mut seen = vec![false; n];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    /// Grows an alternating tree from `root`; returns the exposed end of an augmenting path,
    /// or `NONE`. Afterwards `used` marks the even (outer) vertices reached.
    fn find_path(&mut self, root: usize) -> usize {
        let n = self.adj.len();
        self.used.iter_mut().for_each(|x| *x = false);
        self.parent.iter_mut().for_each(|x| *x = NONE);
        for (i, b) in self.base.iter_mut().enumerate() {
            *b = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push_back(root);
        while let Some(v) = self.queue.pop_front() {
            for idx in 0..self.adj[v].len() {
                let to = self.adj[v][idx];
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let cur = self.lca(v, to);
                    self.blossom.iter_mut().for_each(|x| *x = false);
                    self.mark_path(v, cur, to);
                    self.mark_path(to, cur, v);
                    for i in 0..n {
                        if self.blossom[self.base[i]] {
                            self.base[i] = cur;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push_back(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return to;
                    }
                    self.used[self.mate[to]] = true;
                    self.queue.push_back(self.mate[to]);
                }
            }
        }
        NONE
    }
}

/// Maximum matching and Gallai–Edmonds decomposition of the graph given by adjacency lists.
pub(crate) fn decompose(adj: &[Vec<usize>]) -> Decomposition {
    let n = adj.len();
    let mut s = Search {
        adj,
        mate: vec![NONE; n],
        parent: vec![NONE; n],
        base: (0..n).collect(),
        used: vec![false; n],
        blossom: vec![false; n],
        queue: VecDeque::new(),
    };
    // cheap greedy start
    for (v, nb) in adj.iter().enumerate() {
        if s.mate[v] == NONE
            && let Some(&u) = nb.iter().find(|&&u| s.mate[u] == NONE)
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
        .filter(|&v| !missable[v] && adj[v].iter().any(|&u| missable[u]))
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
                for &y in &adj[x] {
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
        mate: s
            .mate
            .iter()
            .map(|&m| if m == NONE { None } else { Some(m) })
            .collect(),
        missable,
        barrier,
        odd_groups,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adj(n: usize, e: &[(usize, usize)]) -> Vec<Vec<usize>> {
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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
        #[test]
        fn missable_means_some_maximum_matching_leaves_it_out(
            n in 1usize..10,
            raw in proptest::collection::vec((0usize..10, 0usize..10), 0..25),
        ) {
            let e: Vec<(usize, usize)> = raw.into_iter().map(|(a, b)| (a % n, b % n))
                .filter(|(a, b)| a != b).collect();
            let size = |skip: Option<usize>| {
                let we: Vec<_> = e.iter().filter(|(a, b)| Some(*a) != skip && Some(*b) != skip)
                    .map(|&(a, b)| (a, b, 1i64)).collect();
                super::super::blossom::max_weight_matching(n, &we, true)
                    .iter().filter(|m| m.is_some()).count() / 2
            };
            let d = decompose(&adj(n, &e));
            let full = size(None);
            proptest::prop_assert_eq!(d.mate.iter().filter(|m| m.is_some()).count() / 2, full);
            for v in 0..n {
                proptest::prop_assert_eq!(d.missable[v], size(Some(v)) == full, "vertex {}", v);
            }
        }
    }
}
