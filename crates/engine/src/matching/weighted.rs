//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm with the primal-dual
//! method, O(n³) (after Galil, "Efficient algorithms for finding maximum matching in graphs",
//! 1986). Weights are unsigned integers of any width ([`MatchWeight`]: `u64`, `u128`, and the
//! Dutch engine's 512-bit weights); an edge of weight zero is no edge. Vertex duals are kept
//! doubled so that every quantity stays an integer, and no quantity ever goes negative, so
//! unsigned arithmetic suffices.
//!
//! [`Matching`] keeps its solution between solves, so that after a few weight changes a
//! re-solve starts from the previous optimum (the Dutch engine re-solves one graph many times).
//! [`max_weight_max_cardinality`] finds, among the matchings with the most edges, one of
//! maximum weight (the Keizer pairing's minimum-cost perfect matching).

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
    /// Whether the lowest bit is set.
    fn is_odd(self) -> bool;
    /// `self - o`, wrapping around below zero (two's complement).
    fn wrapping_sub(self, o: Self) -> Self;
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
    fn is_odd(self) -> bool {
        self & 1 == 1
    }
    fn wrapping_sub(self, o: Self) -> Self {
        u64::wrapping_sub(self, o)
    }
}

impl MatchWeight for u128 {
    fn zero() -> Self {
        0
    }
    fn half(self) -> Self {
        self / 2
    }
    fn double(self) -> Self {
        self * 2
    }
    fn is_odd(self) -> bool {
        self & 1 == 1
    }
    fn wrapping_sub(self, o: Self) -> Self {
        u128::wrapping_sub(self, o)
    }
}

const NONE: isize = -1;

/// The tight edges of a matching's graph between the vertices marked `open`, as the
/// cardinality search reads them (each vertex's edges in the graph's order, the tight ones
/// joined).
struct TightEdges<'a, W: MatchWeight> {
    m: &'a Matching<W>,
    open: Vec<bool>,
}

impl<W: MatchWeight> super::cardinality::Graph for TightEdges<'_, W> {
    fn len(&self) -> usize {
        self.m.n
    }
    fn slots(&self, v: usize) -> std::ops::Range<usize> {
        0..if self.open[v] { self.m.nbr[v].len() } else { 0 }
    }
    fn at(&self, v: usize, s: usize) -> usize {
        self.m.nbr[v][s] as usize
    }
    fn joined(&self, v: usize, s: usize) -> bool {
        let w = self.m.nbr[v][s] as usize;
        let wt = self.m.nbw[v][s];
        self.open[w] && wt != W::zero() && self.m.dualvar[v] + self.m.dualvar[w] == wt.double()
    }
}

/// An incremental maximum-weight matching: the graph's edges are fixed at construction, their
/// weights may change between [`Matching::solve`] calls (zero means "no edge"), and each solve
/// starts from the previous optimum and its dual solution.
///
/// Warm start. A weight change on edge `x`–`y` that keeps the current solution optimal (the
/// edge is unmatched, does not join two children of a blossom and keeps a non-negative slack)
/// is just recorded. Otherwise `x` is marked: before the next solve, every marked
/// vertex is made the base of its top-level blossom (flipping the even alternating path
/// inside it), unmatched from its partner, and all blossoms containing it are dissolved, each
/// blossom's dual being added to its vertices' duals (edges inside keep their slack, edges
/// leaving it gain slack, and the only matched edge that leaves it is the one just removed).
/// The marked vertex then gets the smallest dual that makes all its edges feasible. All
/// invariants of the primal-dual method hold again (every slack non-negative, matched edges
/// and blossom edges tight, blossoms with positive dual full), except that some exposed
/// vertices may have a positive dual. The solve removes those, which is exactly optimality:
/// it runs stages of the usual alternating-forest search rooted at the exposed vertices with
/// a positive dual (only those of one dual parity per stage, so that the slack of an edge
/// between two trees stays even and can be halved). A stage ends with one of: an augmenting
/// path to another exposed vertex (a root, or an unlabelled exposed vertex); a root's dual
/// reaching zero; or a non-root S-vertex's dual reaching zero, in which case the alternating
/// path from it to its root is flipped (every edge on it is tight, so the weight is
/// unchanged) and it becomes exposed with a zero dual. Each stage lowers the number of
/// exposed vertices with a positive dual, so a solve after changes around `k` vertices takes
/// `O(k)` stages of `O(n²)` rather than the `O(n)` stages of a solve from scratch.
pub struct Matching<W: MatchWeight> {
    n: usize,
    ends: Vec<[u32; 2]>,
    weight: Vec<W>,
    neighbend: Vec<Vec<u32>>,
    /// The neighbour and the weight of each entry of `neighbend` (scanned far more often than
    /// they change).
    nbr: Vec<Vec<u32>>,
    nbw: Vec<Vec<W>>,
    /// Where each edge `k` sits in `nbr`/`nbw` of its two ends `ends[k]` (so that a weight
    /// change writes both copies without searching either list).
    slot: Vec<[u32; 2]>,
    mate: Vec<isize>,
    label: Vec<u8>,
    labelend: Vec<isize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<isize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<isize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<isize>,
    /// The slack of `bestedge` under the current duals.
    bestslack: Vec<W>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    /// One bit per edge (a bit set, not a byte per edge: the scan reads it for edges all
    /// over the graph, and the smaller set stays in the cache).
    allowedge: Vec<u64>,
    allowed: Vec<usize>,
    structural: Vec<bool>,
    queue: Vec<usize>,
    deferred: Vec<usize>,
    defer: bool,
    fruitless: Vec<bool>,
    dirty: Vec<bool>,
    dirty_list: Vec<usize>,
    started: bool,
    /// See [`Matching::search_tight_first`].
    tight_roots: usize,
}

/// Computes a maximum-weight matching of the graph with `n` vertices and the given edges
/// `(i, j, weight)` (no self-loops, at most one edge per pair; zero-weight edges are ignored).
/// Returns each vertex's mate.
pub fn max_weight_matching<W: MatchWeight>(
    n: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    Matching::new(n, edges).solve()
}

/// Among the matchings of the graph with the most edges, one of maximum weight: the graph has
/// `n` vertices and the given edges `(i, j, weight)` (no self-loops, at most one edge per
/// pair; here every listed edge is an edge, weight zero included). Returns each vertex's mate.
///
/// It is the weighted matching run on lifted weights `w + C` with `C = ⌊n/2⌋·max w + 1`.
/// Why that forces the cardinality first: a matching of `k` edges weighs at most
/// `k·C + k·max w` when lifted, and one of `k + j` edges (`j ≥ 1`, `k + j ≤ ⌊n/2⌋`) at least
/// `(k + j)·C`, which is more by at least `C − k·max w = (⌊n/2⌋ − k)·max w + 1 > 0`. Among
/// matchings of equal size `k` the lift adds the same `k·C` to each, so their order by weight
/// is kept. The lifted weights are `u64` when every quantity of the solve (doubled duals and
/// their sums) fits, `u128` otherwise (always enough: vertices are numbered in `u32`).
pub fn max_weight_max_cardinality(n: usize, edges: &[(usize, usize, u64)]) -> Vec<Option<usize>> {
    let maxw = edges.iter().map(|e| e.2).max().unwrap_or(0);
    let pairs = (n / 2) as u64;
    // The largest lifted weight is (⌊n/2⌋ + 1)·max w + 1; the solve handles sums of two
    // doubled duals, each at most twice the largest weight.
    let fits = (pairs + 1)
        .checked_mul(maxw)
        .and_then(|x| x.checked_add(1))
        .and_then(|x| x.checked_mul(8))
        .is_some();
    if fits {
        let lift = pairs * maxw + 1;
        let lifted: Vec<(usize, usize, u64)> =
            edges.iter().map(|&(i, j, w)| (i, j, w + lift)).collect();
        max_weight_matching(n, &lifted)
    } else {
        let lift = u128::from(pairs) * u128::from(maxw) + 1;
        let lifted: Vec<(usize, usize, u128)> = edges
            .iter()
            .map(|&(i, j, w)| (i, j, u128::from(w) + lift))
            .collect();
        max_weight_matching(n, &lifted)
    }
}

impl<W: MatchWeight> Matching<W> {
    /// The graph with `n` vertices and the given edges `(i, j, weight)` (no self-loops, at
    /// most one edge per pair). Nothing is solved yet.
    pub fn new(n: usize, edges: &[(usize, usize, W)]) -> Self {
        Self::from_parts(
            n,
            edges
                .iter()
                .map(|&(i, j, _)| [i as u32, j as u32])
                .collect(),
            edges.iter().map(|e| e.2).collect(),
        )
    }

    /// The graph with `n` vertices and edges `ends[k]` of weight `weight[k]`.
    pub fn from_parts(n: usize, ends: Vec<[u32; 2]>, weight: Vec<W>) -> Self {
        let mut neighbend: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (k, &[i, j]) in ends.iter().enumerate() {
            neighbend[i as usize].push(2 * k as u32 + 1);
            neighbend[j as usize].push(2 * k as u32);
        }
        for l in &mut neighbend {
            l.sort_unstable_by_key(|&p| ends[p as usize / 2][p as usize & 1]);
        }
        let nbr: Vec<Vec<u32>> = neighbend
            .iter()
            .map(|l| {
                l.iter()
                    .map(|&p| ends[p as usize / 2][p as usize & 1])
                    .collect()
            })
            .collect();
        let nbw: Vec<Vec<W>> = neighbend
            .iter()
            .map(|l| l.iter().map(|&p| weight[p as usize / 2]).collect())
            .collect();
        let m = ends.len();
        let mut slot = vec![[0u32; 2]; m];
        for l in &neighbend {
            for (s, &p) in l.iter().enumerate() {
                // Entry `2k + 1` lies in the list of `ends[k][0]`, entry `2k` in that of
                // `ends[k][1]`.
                slot[p as usize / 2][1 - (p as usize & 1)] = s as u32;
            }
        }
        Matching {
            n,
            ends,
            weight,
            neighbend,
            nbr,
            nbw,
            slot,
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
            bestslack: vec![W::zero(); 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar: vec![W::zero(); 2 * n],
            allowedge: vec![0; m.div_ceil(64)],
            allowed: Vec::new(),
            structural: vec![false; m],
            queue: Vec::new(),
            deferred: Vec::new(),
            defer: true,
            fruitless: vec![false; n],
            dirty: vec![false; n],
            dirty_list: Vec::new(),
            started: false,
            tight_roots: usize::MAX,
        }
    }

    /// Before each stage that follows a change of the duals (and at the start of each solve),
    /// when at least `roots` exposed vertices of positive dual lie outside blossoms: first
    /// enlarges the matching along augmenting paths of tight edges between vertices outside
    /// blossoms, found by the augmenting-path search of the cardinality matching. Every
    /// matched edge stays tight and no dual changes, so every invariant holds and the stages
    /// do the rest; the solution is a maximum-weight matching either way. The stages alone
    /// find one such path per stage, each time growing the forest from every root again,
    /// which over a dense graph with many equal weights means scanning nearly every edge per
    /// path. Off (`usize::MAX`) unless set: among several maximum-weight matchings the one
    /// returned may differ.
    pub fn search_tight_first(&mut self, roots: usize) {
        self.tight_roots = roots.max(1);
    }

    /// The edge between `x` and `y`, if the graph has one (of any weight).
    pub fn edge(&self, x: usize, y: usize) -> Option<usize> {
        self.nbr[x]
            .binary_search(&(y as u32))
            .ok()
            .map(|i| self.neighbend[x][i] as usize / 2)
    }

    /// The current weight of edge `k`.
    pub fn weight(&self, k: usize) -> W {
        self.weight[k]
    }

    /// The dual of `b` after the last solve: of a vertex (below `n`, doubled) or of a blossom
    /// (numbered from `n` up). Every edge `x`–`y` has a non-negative slack
    /// `dual(x) + dual(y) + 2 · (the duals of the blossoms around both) - 2 · weight`, zero on
    /// matched edges.
    pub fn dual(&self, b: usize) -> W {
        self.dualvar[b]
    }

    /// The blossom immediately around `b` (a vertex or a blossom) after the last solve, if any.
    pub fn blossom_parent(&self, b: usize) -> Option<usize> {
        (self.blossomparent[b] >= 0).then(|| self.blossomparent[b] as usize)
    }

    /// The edges at `x`, as (neighbour, edge) pairs in increasing neighbour order.
    pub fn neighbours(&self, x: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.neighbend[x]
            .iter()
            .map(|&p| (self.endpoint(p as usize), p as usize / 2))
    }

    /// Sets the weight of edge `k`, seen as a change around its endpoint `x`.
    pub fn set_weight(&mut self, x: usize, k: usize, w: W) {
        let old = self.weight[k];
        if old == w {
            return;
        }
        self.weight[k] = w;
        let [i, j] = self.ends[k];
        let [si, sj] = self.slot[k];
        self.nbw[i as usize][si as usize] = w;
        self.nbw[j as usize][sj as usize] = w;
        let y = if i as usize == x { j } else { i } as usize;
        if !self.started || self.dirty[x] || self.dirty[y] {
            return;
        }
        let matched = self.mate[x] >= 0 && self.mate[x] as usize / 2 == k;
        // An edge between two children of a blossom must stay tight; any other unmatched
        // edge may change as long as its slack stays non-negative (inside a blossom its true
        // slack also counts the duals of the blossoms around it, which are non-negative).
        let keeps = !matched
            && !self.structural[k]
            && (w <= old || self.dualvar[x] + self.dualvar[y] >= w.double());
        if !keeps {
            self.dirty[x] = true;
            self.dirty_list.push(x);
        }
    }

    fn endpoint(&self, p: usize) -> usize {
        self.ends[p / 2][p & 1] as usize
    }

    fn edge_ends(&self, k: usize) -> (usize, usize) {
        let [i, j] = self.ends[k];
        (i as usize, j as usize)
    }

    /// Solves (or re-solves after weight changes) and returns each vertex's mate.
    pub fn solve(&mut self) -> Vec<Option<usize>> {
        if !self.started {
            // Start from each vertex's largest weight as its dual and a greedy matching on
            // the edges that are then tight (a valid warm start: every slack is non-negative
            // and every matched edge tight).
            self.started = true;
            for x in 0..self.n {
                let mut d = W::zero();
                for &p in &self.neighbend[x] {
                    d = d.max(self.weight[p as usize / 2]);
                }
                self.dualvar[x] = d;
            }
            for x in 0..self.n {
                if self.mate[x] != NONE {
                    continue;
                }
                for idx in 0..self.neighbend[x].len() {
                    let p = self.neighbend[x][idx] as usize;
                    let (k, y) = (p / 2, self.endpoint(p));
                    if self.mate[y] == NONE
                        && self.weight[k] != W::zero()
                        && self.dualvar[x] + self.dualvar[y] == self.weight[k].double()
                    {
                        self.mate[x] = p as isize;
                        self.mate[y] = (p ^ 1) as isize;
                        break;
                    }
                }
            }
            self.dirty_list.clear();
            self.dirty.iter_mut().for_each(|d| *d = false);
        }
        self.fruitless.iter_mut().for_each(|f| *f = false);
        let list = std::mem::take(&mut self.dirty_list);
        for &x in &list {
            self.detach(x);
        }
        for &x in &list {
            self.dirty[x] = false;
            let mut d = W::zero();
            for &p in &self.neighbend[x] {
                let k = p as usize / 2;
                let w2 = self.weight[k].double();
                let dy = self.dualvar[self.endpoint(p as usize)];
                if w2 > dy && w2 - dy > d {
                    d = w2 - dy;
                }
            }
            self.dualvar[x] = d;
        }
        self.run();
        self.mate
            .iter()
            .map(|&p| (p >= 0).then(|| self.endpoint(p as usize)))
            .collect()
    }

    /// The search of [`Matching::search_tight_first`]. A vertex takes part when it and its
    /// mate (if any) lie outside blossoms, so that the slack of its edges is that of its dual
    /// and the paths found leave every blossom as it is.
    fn augment_tight(&mut self) {
        let n = self.n;
        if self.tight_roots == usize::MAX {
            return;
        }
        let single = |v: usize| self.inblossom[v] == v;
        let ok: Vec<bool> = (0..n)
            .map(|v| {
                single(v) && (self.mate[v] == NONE || single(self.endpoint(self.mate[v] as usize)))
            })
            .collect();
        let roots: Vec<usize> = (0..n)
            .filter(|&v| ok[v] && self.mate[v] == NONE && self.dualvar[v] > W::zero())
            .collect();
        if roots.len() < self.tight_roots {
            return;
        }
        let before: Vec<Option<usize>> = (0..n)
            .map(|v| (ok[v] && self.mate[v] != NONE).then(|| self.endpoint(self.mate[v] as usize)))
            .collect();
        let tight = TightEdges { m: self, open: ok };
        let after = super::cardinality::augment_from(&tight, &before, &roots);
        for v in 0..n {
            if after[v] != before[v]
                && let Some(y) = after[v]
                && let Some(k) = self.edge(v, y)
            {
                self.mate[v] = (2 * k + (self.ends[k][0] as usize == v) as usize) as isize;
            }
        }
    }

    /// Unmatches `x` and takes it out of every blossom (see the type's documentation).
    fn detach(&mut self, x: usize) {
        let top = self.inblossom[x];
        if top >= self.n {
            let base = self.blossombase[top] as usize;
            if self.mate[base] >= 0 {
                let m = self.endpoint(self.mate[base] as usize);
                self.mate[m] = NONE;
            }
            self.augment_blossom(top, x);
            self.mate[x] = NONE;
            let mut b = top;
            loop {
                let z = self.dualvar[b];
                for v in self.leaves_of(b) {
                    self.dualvar[v] = self.dualvar[v] + z;
                }
                let childs = std::mem::take(&mut self.blossomchilds[b]);
                for &s in &childs {
                    self.blossomparent[s] = NONE;
                    if s < self.n {
                        self.inblossom[s] = s;
                    } else {
                        for v in self.leaves_of(s) {
                            self.inblossom[v] = s;
                        }
                    }
                }
                for p in std::mem::take(&mut self.blossomendps[b]) {
                    self.structural[p / 2] = false;
                }
                self.blossombase[b] = NONE;
                self.blossombestedges[b] = None;
                self.bestedge[b] = NONE;
                self.dualvar[b] = W::zero();
                self.label[b] = 0;
                self.labelend[b] = NONE;
                self.unusedblossoms.push(b);
                b = self.inblossom[x];
                if b == x {
                    break;
                }
            }
        } else if self.mate[x] >= 0 {
            let m = self.endpoint(self.mate[x] as usize);
            self.mate[m] = NONE;
            self.mate[x] = NONE;
        }
    }

    /// The slack of edge `k` from its endpoints' duals. A cached best edge that has since become
    /// internal to a blossom can have a negative vertex-only slack when the caches are
    /// refreshed after a dual change; it wraps to a huge value (in every build profile:
    /// [`MatchWeight::wrapping_sub`]), so it is never the minimum chosen, and it is recomputed before use.
    fn slack(&self, k: usize) -> W {
        let (i, j) = self.edge_ends(k);
        (self.dualvar[i] + self.dualvar[j]).wrapping_sub(self.weight[k].double())
    }

    fn allowed_edge(&self, k: usize) -> bool {
        self.allowedge[k / 64] >> (k % 64) & 1 != 0
    }

    fn allow(&mut self, k: usize) {
        if !self.allowed_edge(k) {
            self.allowedge[k / 64] |= 1 << (k % 64);
            self.allowed.push(k);
        }
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
            self.assign_label(self.endpoint(m as usize), 1, m ^ 1);
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
                v = self.endpoint(self.labelend[b] as usize) as isize;
                b = self.inblossom[v as usize];
                v = self.endpoint(self.labelend[b] as usize) as isize;
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
        let (mut v, mut w) = self.edge_ends(k);
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
            v = self.endpoint(self.labelend[bv] as usize);
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
            w = self.endpoint(self.labelend[bw] as usize);
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        for &p in &endps {
            self.structural[p / 2] = true;
        }
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
        let mut bestslackto = vec![W::zero(); 2 * self.n];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(l) => vec![l],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|v| {
                        self.neighbend[v]
                            .iter()
                            .map(|&p| p as usize / 2)
                            .filter(|&k| self.weight[k] != W::zero())
                            .collect()
                    })
                    .collect(),
            };
            for nblist in nblists {
                for k in nblist {
                    let (mut i, mut j) = self.edge_ends(k);
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b && self.label[bj] == 1 {
                        let ks = self.slack(k);
                        if bestedgeto[bj] == NONE || ks < bestslackto[bj] {
                            bestedgeto[bj] = k as isize;
                            bestslackto[bj] = ks;
                        }
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
            let ks = self.slack(k);
            if self.bestedge[b] == NONE || ks < self.bestslack[b] {
                self.bestedge[b] = k as isize;
                self.bestslack[b] = ks;
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
            let entrychild = self.inblossom[self.endpoint((self.labelend[b] ^ 1) as usize)];
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
                let ep = self.endpoint((p ^ 1) as usize);
                self.label[ep] = 0;
                let e = self.endp_at(b, j - endptrick) as isize ^ endptrick ^ 1;
                let ee = self.endpoint(e as usize);
                self.label[ee] = 0;
                self.assign_label(self.endpoint((p ^ 1) as usize), 2, p);
                let e = self.endp_at(b, j - endptrick) / 2;
                self.allow(e);
                j += jstep;
                p = self.endp_at(b, j - endptrick) as isize ^ endptrick;
                self.allow((p / 2) as usize);
                j += jstep;
            }
            let bv = self.child_at(b, j);
            let ep = self.endpoint((p ^ 1) as usize);
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
                    let em = self.endpoint(m as usize);
                    self.label[em] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
            let _ = len;
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b].clear();
        for p in std::mem::take(&mut self.blossomendps[b]) {
            self.structural[p / 2] = false;
        }
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
                self.augment_blossom(t, self.endpoint(p as usize));
            }
            j += jstep;
            let t = self.child_at(b, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint((p ^ 1) as usize));
            }
            let (ea, eb) = (self.endpoint(p as usize), self.endpoint((p ^ 1) as usize));
            self.mate[ea] = p ^ 1;
            self.mate[eb] = p;
        }
        let i = i as usize;
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.edge_ends(k);
        self.augment_from(v, 2 * k as isize + 1);
        self.augment_from(w, 2 * k as isize);
    }

    /// Matches `s` to endpoint `p` (or leaves it exposed for `p == NONE`) and flips the
    /// alternating path from `s` to the root of its tree.
    fn augment_from(&mut self, mut s: usize, mut p: isize) {
        loop {
            let bs = self.inblossom[s];
            if bs >= self.n {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.endpoint(self.labelend[bs] as usize);
            let bt = self.inblossom[t];
            s = self.endpoint(self.labelend[bt] as usize);
            let j = self.endpoint((self.labelend[bt] ^ 1) as usize);
            if bt >= self.n {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    fn run(&mut self) {
        let n = self.n;
        // Whether the duals changed since the last search of the tight edges.
        let mut fresh = true;
        loop {
            if fresh {
                self.augment_tight();
                fresh = false;
            }
            // A new stage.
            self.label.iter_mut().for_each(|l| *l = 0);
            self.labelend.iter_mut().for_each(|l| *l = NONE);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            for k in std::mem::take(&mut self.allowed) {
                self.allowedge[k / 64] &= !(1 << (k % 64));
            }
            self.queue.clear();
            self.deferred.clear();
            self.defer = true;
            let mut parity = None;
            for v in 0..n {
                if self.mate[v] == NONE
                    && self.dualvar[v] > W::zero()
                    && self.label[self.inblossom[v]] == 0
                {
                    let odd = self.dualvar[v].is_odd();
                    if *parity.get_or_insert(odd) == odd {
                        self.assign_label(v, 1, NONE);
                    }
                }
            }
            if parity.is_none() {
                break;
            }
            loop {
                if self.scan() {
                    break;
                }
                // Dual adjustment.
                let mut deltatype = 0;
                let mut delta = W::zero();
                let mut deltavertex = 0usize;
                let mut deltaedge = 0usize;
                let mut deltablossom = 0usize;
                // Type 1: an S-vertex's dual reaches zero (exposed ones first on ties, so that
                // a solve from scratch ends as the plain algorithm does).
                for v in 0..n {
                    if self.label[self.inblossom[v]] != 1 {
                        continue;
                    }
                    let d = self.dualvar[v];
                    if deltatype == 0
                        || d < delta
                        || (d == delta && self.mate[v] == NONE && self.mate[deltavertex] != NONE)
                    {
                        delta = d;
                        deltatype = 1;
                        deltavertex = v;
                    }
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.bestslack[v];
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
                        let d = self.bestslack[b].half();
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
                if delta != W::zero() {
                    for b in 0..2 * n {
                        if self.bestedge[b] != NONE {
                            self.bestslack[b] = self.slack(self.bestedge[b] as usize);
                        }
                    }
                }
                if delta != W::zero() {
                    self.fruitless.iter_mut().for_each(|f| *f = false);
                    fresh = true;
                }
                match deltatype {
                    1 => {
                        // An S-vertex's dual reached zero: it becomes the exposed one.
                        self.augment_from(deltavertex, NONE);
                        break;
                    }
                    2 | 3 => {
                        self.allow(deltaedge);
                        let (mut i, j) = self.edge_ends(deltaedge);
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
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

    /// Grows the forest along tight edges; true when it augmented the matching.
    ///
    /// A root that is a single vertex without any tight edge cannot take part in an
    /// augmentation until the duals change: its scan (which only records its least-slack
    /// edges for the dual adjustment) is deferred until the forest cannot grow otherwise, so
    /// the many stages of a solve from scratch that end in an augmentation found elsewhere
    /// skip it.
    fn scan(&mut self) -> bool {
        loop {
            let Some(v) = self.queue.pop() else {
                if self.deferred.is_empty() {
                    return false;
                }
                self.queue.append(&mut self.deferred);
                self.defer = false;
                continue;
            };
            let root = self.mate[v] == NONE && self.inblossom[v] == v;
            if self.defer && root && self.fruitless[v] {
                self.deferred.push(v);
                continue;
            }
            let mut tight = false;
            let dv = self.dualvar[v];
            for idx in 0..self.neighbend[v].len() {
                let w = self.nbr[v][idx] as usize;
                if self.inblossom[v] == self.inblossom[w] {
                    continue;
                }
                let wt = self.nbw[v][idx];
                if wt == W::zero() {
                    continue;
                }
                let p = self.neighbend[v][idx] as usize;
                let k = p / 2;
                let mut kslack = W::zero();
                if !self.allowed_edge(k) {
                    kslack = dv + self.dualvar[w] - wt.double();
                    if kslack == W::zero() {
                        self.allow(k);
                    }
                }
                let bw = self.inblossom[w];
                if self.allowed_edge(k) {
                    tight = true;
                    if self.label[bw] == 0 {
                        if self.mate[self.blossombase[bw] as usize] == NONE {
                            // An exposed vertex outside the forest: augment.
                            self.augment_matching(k);
                            return true;
                        }
                        self.assign_label(w, 2, (p ^ 1) as isize);
                    } else if self.label[bw] == 1 {
                        let base = self.scan_blossom(v as isize, w as isize);
                        if base >= 0 {
                            self.add_blossom(base as usize, k);
                        } else {
                            self.augment_matching(k);
                            return true;
                        }
                    } else if self.label[w] == 0 {
                        self.label[w] = 2;
                        self.labelend[w] = (p ^ 1) as isize;
                    }
                } else if self.label[bw] == 1 {
                    let b = self.inblossom[v];
                    if self.bestedge[b] == NONE || kslack < self.bestslack[b] {
                        self.bestedge[b] = k as isize;
                        self.bestslack[b] = kslack;
                    }
                } else if self.label[w] == 0
                    && (self.bestedge[w] == NONE || kslack < self.bestslack[w])
                {
                    self.bestedge[w] = k as isize;
                    self.bestslack[w] = kslack;
                }
            }
            if root && !tight {
                self.fruitless[v] = true;
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
            let mut searching = Matching::new(n, &edges);
            searching.search_tight_first(1);
            for m in [max_weight_matching(n, &edges), searching.solve()] {
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

    /// Total weight of a matching, checking that it is one (symmetric, on real edges).
    fn total(n: usize, edges: &[(usize, usize, u64)], m: &[Option<usize>]) -> u64 {
        let mut total = 0;
        for i in 0..n {
            if let Some(j) = m[i] {
                assert_eq!(m[j], Some(i));
                let w = edges
                    .iter()
                    .find(|e| (e.0, e.1) == (i.min(j), i.max(j)))
                    .map_or(0, |e| e.2);
                assert!(w > 0, "matched a missing edge {i}-{j}");
                if i < j {
                    total += w;
                }
            }
        }
        total
    }

    #[test]
    fn warm_started_solves_equal_solves_from_scratch() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for _ in 0..150 {
            let n = rng.random_range(2..40usize);
            let density = rng.random_range(1..=4);
            let heavy = rng.random_range(0..3) == 0;
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if rng.random_range(0..4) < density {
                        // Few distinct weights (many ties and blossoms) or a wide range.
                        let x = if heavy {
                            rng.random_range(1..1_000_000u64)
                        } else {
                            rng.random_range(1..6u64)
                        };
                        edges.push((i, j, x));
                    }
                }
            }
            let mut m = Matching::new(n, &edges);
            // The same graph, searching its tight edges first at every stage that has an
            // exposed vertex with a positive dual.
            let mut t = Matching::new(n, &edges);
            t.search_tight_first(1);
            let first = m.solve();
            assert_eq!(
                total(n, &edges, &first),
                total(n, &edges, &max_weight_matching(n, &edges))
            );
            assert_eq!(total(n, &edges, &t.solve()), total(n, &edges, &first));
            for _ in 0..12 {
                // Change the weights around a few vertices (raise, lower, remove, restore).
                for _ in 0..rng.random_range(1..4) {
                    let x = rng.random_range(0..n);
                    let ks: Vec<usize> = m.neighbours(x).map(|(_, k)| k).collect();
                    for k in ks {
                        if rng.random_range(0..3) == 0 {
                            continue;
                        }
                        let w = match rng.random_range(0..4) {
                            0 => 0,
                            1 => m.weight(k) / 2,
                            _ => {
                                if heavy {
                                    rng.random_range(1..2_000_000u64)
                                } else {
                                    rng.random_range(1..9u64)
                                }
                            }
                        };
                        m.set_weight(x, k, w);
                        t.set_weight(x, k, w);
                        edges[k].2 = w;
                    }
                }
                let warm = m.solve();
                let cold = max_weight_matching(n, &edges);
                assert_eq!(
                    total(n, &edges, &warm),
                    total(n, &edges, &cold),
                    "n={n} edges={edges:?}"
                );
                assert_eq!(
                    total(n, &edges, &t.solve()),
                    total(n, &edges, &cold),
                    "tight edges first: n={n} edges={edges:?}"
                );
            }
        }
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

    /// The best (cardinality, weight) by dynamic programming over vertex subsets (up to 16
    /// vertices): `best[mask]` leaves the lowest vertex of `mask` exposed or matches it to a
    /// neighbour in `mask`.
    fn subset_dp(n: usize, edges: &[(usize, usize, u64)]) -> (usize, u64) {
        let mut w = vec![vec![None; n]; n];
        for &(i, j, x) in edges {
            w[i][j] = Some(x);
            w[j][i] = Some(x);
        }
        let mut best = vec![(0usize, 0u64); 1 << n];
        for mask in 1usize..(1 << n) {
            let v = mask.trailing_zeros() as usize;
            let rest = mask & !(1 << v);
            let mut b = best[rest];
            for u in 0..n {
                if rest & (1 << u) != 0
                    && let Some(x) = w[v][u]
                {
                    let (c, t) = best[rest & !(1 << u)];
                    b = b.max((c + 1, t + x));
                }
            }
            best[mask] = b;
        }
        best[(1 << n) - 1]
    }

    /// (cardinality, weight) of a matching, checking that it is one of the graph.
    fn card_weight(n: usize, edges: &[(usize, usize, u64)], m: &[Option<usize>]) -> (usize, u64) {
        let mut card = 0;
        let mut weight = 0;
        for &(i, j, x) in edges {
            if m[i] == Some(j) {
                assert_eq!(m[j], Some(i));
                card += 1;
                weight += x;
            }
        }
        assert_eq!(m.len(), n);
        assert_eq!(
            m.iter().filter(|x| x.is_some()).count(),
            2 * card,
            "a mate off the edges"
        );
        (card, weight)
    }

    #[test]
    fn max_cardinality_small_cases() {
        // Path 0-1-2-3 with weights 5, 11, 5: two edges (10) beat the heavier middle (11).
        let e = [(0, 1, 5u64), (1, 2, 11), (2, 3, 5)];
        assert_eq!(
            card_weight(4, &e, &max_weight_max_cardinality(4, &e)),
            (2, 10)
        );
        // A triangle with a pendant: the pendant edge and the opposite triangle edge.
        let e = [(0, 1, 6u64), (1, 2, 6), (0, 2, 6), (2, 3, 7)];
        assert_eq!(
            card_weight(4, &e, &max_weight_max_cardinality(4, &e)),
            (2, 13)
        );
        // Zero-weight edges count for the cardinality: 0-1 (0) and 2-3 (0) beat 1-2 (9).
        let e = [(0, 1, 0u64), (1, 2, 9), (2, 3, 0)];
        assert_eq!(
            card_weight(4, &e, &max_weight_max_cardinality(4, &e)),
            (2, 0)
        );
        // No edges, one vertex, nothing.
        assert_eq!(max_weight_max_cardinality(3, &[]), vec![None; 3]);
        assert_eq!(max_weight_max_cardinality(1, &[]), vec![None]);
    }

    #[test]
    fn max_cardinality_takes_u128_for_huge_weights() {
        // C = 2·(u64::MAX / 2) + 1 overflows the u64 solve's room: the u128 path answers.
        let big = u64::MAX / 2;
        let e = [(0, 1, 1u64), (1, 2, big), (2, 3, 1), (3, 4, big), (4, 5, 1)];
        let m = max_weight_max_cardinality(6, &e);
        assert_eq!(m, [Some(1), Some(0), Some(3), Some(2), Some(5), Some(4)]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Up to 16 vertices with many ties (weights 0..6) and nested blossoms: the most edges,
        /// then the most weight, as the subset dynamic programme.
        #[test]
        fn max_cardinality_equals_subset_dp(
            n in 1usize..=16,
            raw in proptest::collection::vec((0usize..16, 0usize..16, 0u64..6), 0..70),
        ) {
            let mut edges: Vec<(usize, usize, u64)> = Vec::new();
            for (a, b, x) in raw {
                let (a, b) = (a % n, b % n);
                if a != b && !edges.iter().any(|e| (e.0, e.1) == (a, b) || (e.0, e.1) == (b, a)) {
                    edges.push((a, b, x));
                }
            }
            let got = card_weight(n, &edges, &max_weight_max_cardinality(n, &edges));
            prop_assert_eq!(got, subset_dp(n, &edges));
        }
    }
}
