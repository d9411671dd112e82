//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm with the primal-dual
//! method, O(n³) (after Galil, "Efficient algorithms for finding maximum matching in graphs",
//! 1986). Weights are unsigned integers of any width ([`MatchWeight`]); an edge of weight zero
//! is no edge. Vertex duals are kept doubled so that every quantity stays an integer, and no
//! quantity ever goes negative, so unsigned arithmetic suffices.

use super::wide::Wide;

/// What the matching needs from a weight type.
pub trait MatchWeight:
    Copy + Ord + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self>
{
    /// Zero.
    fn zero() -> Self;
    /// `self / 2` (rounded down).
    fn half(self) -> Self;
    /// `self * 2`.
    fn double(self) -> Self;
}

impl<const L: usize> MatchWeight for Wide<L> {
    fn zero() -> Self {
        Wide::ZERO
    }
    fn half(self) -> Self {
        Wide::half(&self)
    }
    fn double(self) -> Self {
        Wide::double(&self)
    }
}

impl MatchWeight for u64 {
    fn zero() -> Self {
        0
    }
    fn half(self) -> Self {
        self / 2
    }
    fn double(self) -> Self {
        self * 2
    }
}

const NONE: isize = -1;

struct Solver<'a, W: MatchWeight> {
    n: usize,
    edges: &'a [(usize, usize, W)],
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<isize>,
    label: Vec<u8>,
    labelend: Vec<isize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<isize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<isize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<isize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

/// Computes a maximum-weight matching of the graph with `n` vertices and the given edges
/// `(i, j, weight)` (no self-loops, at most one edge per pair; zero-weight edges are ignored).
/// Returns each vertex's mate.
pub fn max_weight_matching<W: MatchWeight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    let maxweight = edges.iter().map(|e| e.2).max().unwrap_or(W::zero());
    let mut endpoint = Vec::with_capacity(2 * edges.len());
    let mut neighbend = vec![Vec::new(); n];
    for (k, &(i, j, _)) in edges.iter().enumerate() {
        endpoint.push(i);
        endpoint.push(j);
        neighbend[i].push(2 * k + 1);
        neighbend[j].push(2 * k);
    }
    let mut s = Solver {
        n,
        edges,
        endpoint,
        neighbend,
        mate: vec![NONE; n],
        label: vec![0; 2 * n],
        labelend: vec![NONE; 2 * n],
        inblossom: (0..n).collect(),
        blossomparent: vec![NONE; 2 * n],
        blossomchilds: vec![Vec::new(); 2 * n],
        blossombase: (0..n as isize)
            .chain(std::iter::repeat_n(NONE, n))
            .collect(),
        blossomendps: vec![Vec::new(); 2 * n],
        bestedge: vec![NONE; 2 * n],
        blossombestedges: vec![None; 2 * n],
        unusedblossoms: (n..2 * n).collect(),
        dualvar: std::iter::repeat_n(maxweight, n)
            .chain(std::iter::repeat_n(W::zero(), n))
            .collect(),
        allowedge: vec![false; edges.len()],
        queue: Vec::new(),
    };
    s.run();
    s.mate
        .iter()
        .map(|&p| (p >= 0).then(|| s.endpoint[p as usize]))
        .collect()
}

impl<W: MatchWeight> Solver<'_, W> {
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - w.double()
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: isize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let l = self.leaves_of(b);
            self.queue.extend(l);
        } else if t == 2 {
            let base = self.blossombase[b] as usize;
            let m = self.mate[base];
            self.assign_label(self.endpoint[m as usize], 1, m ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: isize, mut w: isize) -> isize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v as usize];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b] as usize] as isize;
                b = self.inblossom[v as usize];
                v = self.endpoint[self.labelend[b] as usize] as isize;
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unusedblossoms.pop() else {
            return;
        };
        self.blossombase[b] = base as isize;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b as isize;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b as isize;
            path.push(bv);
            endps.push(self.labelend[bv] as usize);
            v = self.endpoint[self.labelend[bv] as usize];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b as isize;
            path.push(bw);
            endps.push((self.labelend[bw] ^ 1) as usize);
            w = self.endpoint[self.labelend[bw] as usize];
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(l) => vec![l],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| self.neighbend[v].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for nblist in nblists {
                for k in nblist {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE
                            || self.slack(k) < self.slack(bestedgeto[bj] as usize))
                    {
                        bestedgeto[bj] = k as isize;
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto
            .into_iter()
            .filter(|&k| k != NONE)
            .map(|k| k as usize)
            .collect();
        self.bestedge[b] = NONE;
        for &k in &list {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b] as usize) {
                self.bestedge[b] = k as isize;
            }
        }
        self.blossombestedges[b] = Some(list);
    }

    fn child_at(&self, b: usize, j: isize) -> usize {
        let len = self.blossomchilds[b].len() as isize;
        self.blossomchilds[b][j.rem_euclid(len) as usize]
    }

    fn endp_at(&self, b: usize, j: isize) -> usize {
        let len = self.blossomendps[b].len() as isize;
        self.blossomendps[b][j.rem_euclid(len) as usize]
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::zero() {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint[(self.labelend[b] ^ 1) as usize]];
            let len = childs.len() as isize;
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
            let (jstep, endptrick): (isize, isize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[(p ^ 1) as usize]] = 0;
                let e = self.endp_at(b, j - endptrick) as isize ^ endptrick ^ 1;
                self.label[self.endpoint[e as usize]] = 0;
                self.assign_label(self.endpoint[(p ^ 1) as usize], 2, p);
                let e = self.endp_at(b, j - endptrick) / 2;
                self.allowedge[e] = true;
                j += jstep;
                p = self.endp_at(b, j - endptrick) as isize ^ endptrick;
                self.allowedge[(p / 2) as usize] = true;
                j += jstep;
            }
            let bv = self.child_at(b, j);
            let ep = self.endpoint[(p ^ 1) as usize];
            self.label[ep] = 2;
            self.label[bv] = 2;
            self.labelend[ep] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while self.child_at(b, j) != entrychild {
                let bv = self.child_at(b, j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = None;
                for v in self.leaves_of(bv) {
                    if self.label[v] != 0 {
                        found = Some(v);
                        break;
                    }
                }
                if let Some(v) = found {
                    self.label[v] = 0;
                    let m = self.mate[self.blossombase[bv] as usize];
                    self.label[self.endpoint[m as usize]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
            let _ = len;
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b].clear();
        self.blossomendps[b].clear();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b as isize {
            t = self.blossomparent[t] as usize;
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .unwrap_or(0) as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, isize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.child_at(b, j);
            let p = self.endp_at(b, j - endptrick) as isize ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p as usize]);
            }
            j += jstep;
            let t = self.child_at(b, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[(p ^ 1) as usize]);
            }
            self.mate[self.endpoint[p as usize]] = p ^ 1;
            self.mate[self.endpoint[(p ^ 1) as usize]] = p;
        }
        let i = i as usize;
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k as isize + 1), (w, 2 * k as isize)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs] as usize];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt] as usize];
                let j = self.endpoint[(self.labelend[bt] ^ 1) as usize];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn run(&mut self) {
        let n = self.n;
        for _stage in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack == W::zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, (p ^ 1) as isize);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v as isize, w as isize);
                                if base >= 0 {
                                    self.add_blossom(base as usize, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = (p ^ 1) as isize;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE
                                || kslack < self.slack(self.bestedge[b] as usize)
                            {
                                self.bestedge[b] = k as isize;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE
                                || kslack < self.slack(self.bestedge[w] as usize))
                        {
                            self.bestedge[w] = k as isize;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // Dual adjustment.
                let mut deltatype = 1;
                let mut delta = self.dualvar[..n].iter().copied().min().unwrap_or(W::zero());
                let mut deltaedge = 0usize;
                let mut deltablossom = 0usize;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v] as usize);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v] as usize;
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.slack(self.bestedge[b] as usize).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b] as usize;
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] >= 0
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v] - delta,
                        2 => self.dualvar[v] = self.dualvar[v] + delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] >= 0 && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b] + delta,
                            2 => self.dualvar[b] = self.dualvar[b] - delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 | 3 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] >= 0
                    && self.label[b] == 1
                    && self.dualvar[b] == W::zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute(n: usize, w: &[Vec<u64>], used: &mut Vec<bool>, from: usize) -> u64 {
        let Some(i) = (from..n).find(|&i| !used[i]) else {
            return 0;
        };
        used[i] = true;
        let mut best = brute(n, w, used, i + 1); // i stays single
        for j in i + 1..n {
            if !used[j] && w[i][j] > 0 {
                used[j] = true;
                best = best.max(w[i][j] + brute(n, w, used, i + 1));
                used[j] = false;
            }
        }
        used[i] = false;
        best
    }

    #[test]
    #[allow(clippy::needless_range_loop)]
    fn larger_random_graphs_match_brute_force() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..300 {
            let n = rng.random_range(2..13usize);
            let mut w = vec![vec![0u64; n]; n];
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if rng.random_range(0..4) > 0 {
                        let x = rng.random_range(1..1000u64);
                        w[i][j] = x;
                        w[j][i] = x;
                        edges.push((i, j, x));
                    }
                }
            }
            let m = max_weight_matching(n, &edges);
            let mut total = 0;
            for i in 0..n {
                if let Some(j) = m[i] {
                    assert_eq!(m[j], Some(i));
                    if i < j {
                        total += w[i][j];
                    }
                }
            }
            assert_eq!(
                total,
                brute(n, &w, &mut vec![false; n], 0),
                "n={n} edges={edges:?}"
            );
        }
    }

    #[test]
    fn small_worked_examples() {
        // Path 0-1-2-3 with weights 5, 11, 5: taking both ends (10) loses to the middle (11).
        let m = max_weight_matching(4, &[(0, 1, 5u64), (1, 2, 11), (2, 3, 5)]);
        assert_eq!(m, vec![None, Some(2), Some(1), None]);
        // Weights 6, 11, 6: both ends (12) beat the middle (11).
        let m = max_weight_matching(4, &[(0, 1, 6u64), (1, 2, 11), (2, 3, 6)]);
        assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
        // A triangle with a pendant: 0-1-2 triangle (weights 10) and 2-3 (weight 10):
        // best is 0-1 plus 2-3 = 20.
        let m = max_weight_matching(4, &[(0, 1, 10u64), (1, 2, 10), (0, 2, 10), (2, 3, 10)]);
        assert_eq!(m, vec![Some(1), Some(0), Some(3), Some(2)]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        #[allow(clippy::needless_range_loop)]
        fn matches_brute_force(n in 1usize..9, seed in proptest::collection::vec(0u64..8, 36)) {
            let mut w = vec![vec![0u64; n]; n];
            let mut edges = Vec::new();
            let mut s = seed.iter().cycle();
            for i in 0..n {
                for j in i + 1..n {
                    let x = *s.next().unwrap_or(&0);
                    // some missing edges, weights 1..=6
                    if x > 1 {
                        w[i][j] = x - 1;
                        w[j][i] = x - 1;
                        edges.push((i, j, x - 1));
                    }
                }
            }
            let m = max_weight_matching(n, &edges);
            let mut total = 0;
            for i in 0..n {
                if let Some(j) = m[i] {
                    prop_assert_eq!(m[j], Some(i));
                    prop_assert!(w[i][j] > 0);
                    if i < j { total += w[i][j]; }
                }
            }
            prop_assert_eq!(total, brute(n, &w, &mut vec![false; n], 0));
        }
    }
}
