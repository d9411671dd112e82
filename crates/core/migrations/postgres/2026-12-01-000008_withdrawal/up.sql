-- The first round an entrant no longer plays after withdrawing (NULL: not withdrawn). Their
-- earlier games stand; the rules of the competition's kind decide what the later rounds count.
ALTER TABLE entrants ADD COLUMN withdrawn_from INTEGER;
