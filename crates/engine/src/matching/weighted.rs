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
}

mod blossoms;

#[cfg(test)]
mod tests;
