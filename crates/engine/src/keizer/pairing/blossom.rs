//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm with dual
//! variables (primal-dual, O(n³)), after Galil's "Efficient algorithms for finding maximum
//! matching in graphs" (1986). Integer weights only, so every dual stays an exact integer.
//!
//! With `max_cardinality` the result is a maximum-weight matching among the matchings of
//! maximum cardinality; the Keizer pairing uses it with weights `K − cost` to find a
//! minimum-cost perfect matching.

/// "No such item" marker for the index arrays below.
const NONE: usize = usize::MAX;

/// One undirected edge `(u, v, weight)`.
pub(crate) type Edge = (usize, usize, i64);

/// Working state of one run. Vertices are `0..n`; blossoms are `n..2n`. Edge `k` has
/// endpoints `2k` (its `u`) and `2k + 1` (its `v`); `mate[v]` is the remote endpoint.
struct State<'a> {
    n: usize,
    edges: &'a [Edge],
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<i64>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

/// Position of `x` in `v` (the caller guarantees it is there).
fn position(v: &[usize], x: usize) -> usize {
    v.iter().position(|&y| y == x).unwrap_or(0)
}

/// Python-style index: negative values count from the end.
fn wrap(j: isize, len: usize) -> usize {
    j.rem_euclid(len as isize) as usize
}

impl State<'_> {
    fn slack(&self, k: usize) -> i64 {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - 2 * w
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

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    /// Traces back from `v` and `w` to find a new blossom's base, or `NONE` for an
    /// augmenting path.
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
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
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = 0;
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for v in self.leaves_of(b) {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let nblist: Vec<usize> = match self.blossombestedges[bv].take() {
                Some(list) => list,
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .flat_map(|v| self.neighbend[v].iter().map(|p| p / 2))
                    .collect(),
            };
            for k in nblist {
                let (i, mut j, _) = self.edges[k];
                if self.inblossom[j] == b {
                    j = i;
                }
                let bj = self.inblossom[j];
                if bj != b
                    && self.label[bj] == 1
                    && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                {
                    bestedgeto[bj] = k;
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        self.bestedge[b] = NONE;
        for &k in &list {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.blossombestedges[b] = Some(list);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let len = childs.len();
            let endps = self.blossomendps[b].clone();
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let mut j = position(&childs, entrychild) as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 == 1 {
                j -= len as isize;
                (1, 0)
            } else {
                (-1, 1)
            };
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let e = endps[wrap(j - endptrick as isize, len)];
                self.label[self.endpoint[e ^ endptrick ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[e / 2] = true;
                j += jstep;
                p = endps[wrap(j - endptrick as isize, len)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[wrap(j, len)];
            self.label[self.endpoint[p ^ 1]] = 2;
            self.label[bv] = 2;
            self.labelend[self.endpoint[p ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[wrap(j, len)] != entrychild {
                let bv = childs[wrap(j, len)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let labelled = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != 0);
                if let Some(v) = labelled {
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[mb]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len();
        let i = position(&self.blossomchilds[b], t);
        let mut j = i as isize;
        let (jstep, endptrick): (isize, usize) = if i & 1 == 1 {
            j -= len as isize;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][wrap(j, len)];
            let p = self.blossomendps[b][wrap(j - endptrick as isize, len)] ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.blossomchilds[b][wrap(j, len)];
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }
}

/// A maximum-weight matching of the graph on vertices `0..n` with `edges`; with
/// `max_cardinality`, the maximum-weight one among those of maximum cardinality.
/// Returns each vertex's mate.
pub(crate) fn max_weight_matching(
    n: usize,
    edges: &[Edge],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    let maxweight = edges.iter().map(|e| e.2).max().unwrap_or(0).max(0);
    let mut endpoint = Vec::with_capacity(2 * edges.len());
    let mut neighbend = vec![Vec::new(); n];
    for (k, &(i, j, _)) in edges.iter().enumerate() {
        endpoint.push(i);
        endpoint.push(j);
        neighbend[i].push(2 * k + 1);
        neighbend[j].push(2 * k);
    }
    let mut st = State {
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
        blossombase: (0..n).chain(std::iter::repeat_n(NONE, n)).collect(),
        blossomendps: vec![Vec::new(); 2 * n],
        bestedge: vec![NONE; 2 * n],
        blossombestedges: vec![None; 2 * n],
        unusedblossoms: (n..2 * n).collect(),
        dualvar: std::iter::repeat_n(maxweight, n)
            .chain(std::iter::repeat_n(0, n))
            .collect(),
        allowedge: vec![false; edges.len()],
        queue: Vec::new(),
    };

    for _stage in 0..n {
        st.label.iter_mut().for_each(|x| *x = 0);
        st.bestedge.iter_mut().for_each(|x| *x = NONE);
        for b in n..2 * n {
            st.blossombestedges[b] = None;
        }
        st.allowedge.iter_mut().for_each(|x| *x = false);
        st.queue.clear();
        for v in 0..n {
            if st.mate[v] == NONE && st.label[st.inblossom[v]] == 0 {
                st.assign_label(v, 1, NONE);
            }
        }
        let mut augmented = false;
        loop {
            while let Some(v) = st.queue.pop() {
                if augmented {
                    break;
                }
                for idx in 0..st.neighbend[v].len() {
                    let p = st.neighbend[v][idx];
                    let k = p / 2;
                    let w = st.endpoint[p];
                    if st.inblossom[v] == st.inblossom[w] {
                        continue;
                    }
                    let mut kslack = 0;
                    if !st.allowedge[k] {
                        kslack = st.slack(k);
                        if kslack <= 0 {
                            st.allowedge[k] = true;
                        }
                    }
                    if st.allowedge[k] {
                        if st.label[st.inblossom[w]] == 0 {
                            st.assign_label(w, 2, p ^ 1);
                        } else if st.label[st.inblossom[w]] == 1 {
                            let base = st.scan_blossom(v, w);
                            if base != NONE {
                                st.add_blossom(base, k);
                            } else {
                                st.augment_matching(k);
                                augmented = true;
                                break;
                            }
                        } else if st.label[w] == 0 {
                            st.label[w] = 2;
                            st.labelend[w] = p ^ 1;
                        }
                    } else if st.label[st.inblossom[w]] == 1 {
                        let b = st.inblossom[v];
                        if st.bestedge[b] == NONE || kslack < st.slack(st.bestedge[b]) {
                            st.bestedge[b] = k;
                        }
                    } else if st.label[w] == 0
                        && (st.bestedge[w] == NONE || kslack < st.slack(st.bestedge[w]))
                    {
                        st.bestedge[w] = k;
                    }
                }
            }
            if augmented {
                break;
            }
            // Dual adjustment: the largest delta that keeps all slacks non-negative.
            let mut deltatype = 0u8;
            let mut delta = 0i64;
            let mut deltaedge = NONE;
            let mut deltablossom = NONE;
            if !max_cardinality {
                deltatype = 1;
                delta = st.dualvar[..n].iter().copied().min().unwrap_or(0);
            }
            for v in 0..n {
                if st.label[st.inblossom[v]] == 0 && st.bestedge[v] != NONE {
                    let d = st.slack(st.bestedge[v]);
                    if deltatype == 0 || d < delta {
                        delta = d;
                        deltatype = 2;
                        deltaedge = st.bestedge[v];
                    }
                }
            }
            for b in 0..2 * n {
                if st.blossomparent[b] == NONE && st.label[b] == 1 && st.bestedge[b] != NONE {
                    let d = st.slack(st.bestedge[b]) / 2;
                    if deltatype == 0 || d < delta {
                        delta = d;
                        deltatype = 3;
                        deltaedge = st.bestedge[b];
                    }
                }
            }
            for b in n..2 * n {
                if st.blossombase[b] != NONE
                    && st.blossomparent[b] == NONE
                    && st.label[b] == 2
                    && (deltatype == 0 || st.dualvar[b] < delta)
                {
                    delta = st.dualvar[b];
                    deltatype = 4;
                    deltablossom = b;
                }
            }
            if deltatype == 0 {
                deltatype = 1;
                delta = st.dualvar[..n].iter().copied().min().unwrap_or(0).max(0);
            }
            for v in 0..n {
                match st.label[st.inblossom[v]] {
                    1 => st.dualvar[v] -= delta,
                    2 => st.dualvar[v] += delta,
                    _ => {}
                }
            }
            for b in n..2 * n {
                if st.blossombase[b] != NONE && st.blossomparent[b] == NONE {
                    match st.label[b] {
                        1 => st.dualvar[b] += delta,
                        2 => st.dualvar[b] -= delta,
                        _ => {}
                    }
                }
            }
            match deltatype {
                1 => break,
                2 => {
                    st.allowedge[deltaedge] = true;
                    let (mut i, j, _) = st.edges[deltaedge];
                    if st.label[st.inblossom[i]] == 0 {
                        i = j;
                    }
                    st.queue.push(i);
                }
                3 => {
                    st.allowedge[deltaedge] = true;
                    let (i, _, _) = st.edges[deltaedge];
                    st.queue.push(i);
                }
                _ => st.expand_blossom(deltablossom, false),
            }
        }
        if !augmented {
            break;
        }
        for b in n..2 * n {
            if st.blossomparent[b] == NONE
                && st.blossombase[b] != NONE
                && st.label[b] == 1
                && st.dualvar[b] == 0
            {
                st.expand_blossom(b, true);
            }
        }
    }
    st.mate
        .iter()
        .map(|&p| {
            if p == NONE {
                None
            } else {
                Some(st.endpoint[p])
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
