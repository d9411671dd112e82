//! Maximum matching in a general graph (Edmonds' blossom algorithm, O(V³)): used to check that
//! a set of players can all be paired without a repeat meeting (the completion criterion).

use std::collections::VecDeque;

/// Size of a maximum matching of the graph on `n` vertices whose edges are given by `adj`
/// (symmetric).
pub(crate) fn max_matching(n: usize, adj: &dyn Fn(usize, usize) -> bool) -> usize {
    let mut mate: Vec<Option<usize>> = vec![None; n];
    let mut size = 0;
    // Greedy start.
    for a in 0..n {
        if mate[a].is_none()
            && let Some(b) = (a + 1..n).find(|&b| mate[b].is_none() && adj(a, b))
        {
            mate[a] = Some(b);
            mate[b] = Some(a);
            size += 1;
        }
    }
    for root in 0..n {
        if mate[root].is_none() && augment(n, adj, &mut mate, root) {
            size += 1;
        }
    }
    size
}

fn lca(
    mate: &[Option<usize>],
    base: &[usize],
    parent: &[Option<usize>],
    a: usize,
    b: usize,
) -> usize {
    let mut seen = vec![false; mate.len()];
    let mut x = a;
    loop {
        x = base[x];
        seen[x] = true;
        match mate[x].and_then(|m| parent[m]) {
            Some(p) => x = p,
            None => break,
        }
    }
    let mut y = b;
    loop {
        y = base[y];
        if seen[y] {
            return y;
        }
        match mate[y].and_then(|m| parent[m]) {
            Some(p) => y = p,
            None => return y,
        }
    }
}

struct Search<'a> {
    mate: &'a mut Vec<Option<usize>>,
    base: Vec<usize>,
    parent: Vec<Option<usize>>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: VecDeque<usize>,
}

impl Search<'_> {
    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            let m = match self.mate[v] {
                Some(m) => m,
                None => return,
            };
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[m]] = true;
            self.parent[v] = Some(child);
            child = m;
            match self.parent[m] {
                Some(p) => v = p,
                None => return,
            }
        }
    }
}

fn augment(
    n: usize,
    adj: &dyn Fn(usize, usize) -> bool,
    mate: &mut Vec<Option<usize>>,
    root: usize,
) -> bool {
    let mut s = Search {
        mate,
        base: (0..n).collect(),
        parent: vec![None; n],
        used: vec![false; n],
        blossom: vec![false; n],
        queue: VecDeque::new(),
    };
    s.used[root] = true;
    s.queue.push_back(root);
    while let Some(v) = s.queue.pop_front() {
        for to in 0..n {
            if to == v || !adj(v, to) || s.base[v] == s.base[to] || s.mate[v] == Some(to) {
                continue;
            }
            let to_is_outer = to == root || s.mate[to].is_some_and(|m| s.parent[m].is_some());
            if to_is_outer {
                let cur = lca(s.mate, &s.base, &s.parent, v, to);
                s.blossom = vec![false; n];
                s.mark_path(v, cur, to);
                s.mark_path(to, cur, v);
                for i in 0..n {
                    if s.blossom[s.base[i]] {
                        s.base[i] = cur;
                        if !s.used[i] {
                            s.used[i] = true;
                            s.queue.push_back(i);
                        }
                    }
                }
            } else if s.parent[to].is_none() {
                s.parent[to] = Some(v);
                match s.mate[to] {
                    None => {
                        // Augment along the path ending at `to`.
                        let mut u = Some(to);
                        while let Some(x) = u {
                            let pv = match s.parent[x] {
                                Some(p) => p,
                                None => break,
                            };
                            let ppv = s.mate[pv];
                            s.mate[x] = Some(pv);
                            s.mate[pv] = Some(x);
                            u = ppv;
                        }
                        return true;
                    }
                    Some(m) => {
                        if !s.used[m] {
                            s.used[m] = true;
                            s.queue.push_back(m);
                        }
                    }
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_cycle_and_pendant() {
        // A triangle 0-1-2 with 3 hanging on 2: perfect matching 0-1, 2-3 exists.
        let edges = [(0, 1), (1, 2), (0, 2), (2, 3)];
        let adj = |a: usize, b: usize| edges.contains(&(a, b)) || edges.contains(&(b, a));
        assert_eq!(max_matching(4, &adj), 2);
        // Two triangles joined by one edge (0-1-2, 3-4-5, 2-3): perfect matching of 3 pairs.
        let e2 = [(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)];
        let adj2 = |a: usize, b: usize| e2.contains(&(a, b)) || e2.contains(&(b, a));
        assert_eq!(max_matching(6, &adj2), 3);
        // A star: only one pair.
        let adj3 = |a: usize, b: usize| (a == 0) != (b == 0);
        assert_eq!(max_matching(4, &adj3), 1);
    }
}
