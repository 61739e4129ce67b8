-- asset-service: plans for POST /v1/search/assets that stay index-driven at 100,000 rows and more
-- (docs/search.md; bench/search, where both were found with EXPLAIN ANALYZE).

-- 1. Statistics on `cardinality(embedding)`: without them the planner guesses that 0.5 % of rows
-- have an embedding (a default selectivity; the partial indexes on it gather no statistics), so it
-- expected 124 of a project's 25,000 images and chose to sort them all by distance (10 s on PGlite)
-- over the HNSW index (migration 0004), whose ORDER BY … LIMIT then goes unused.
CREATE STATISTICS assets_embedded_stats ON (cardinality(embedding)) FROM assets;

-- 2. One GIN index for a project's full-text search and its commonest filters. With 0003's GIN index alone, `project_id = $1 AND
-- search_text @@ q AND type = … AND tags @> …` is a BitmapAnd of that index (the word's rows in every
-- project) and a btree (the project's rows of that type), then a heap recheck of every row the two
-- share to test the tags: on bench/search's 100,000 rows, 2,137 rows read to keep 62.
-- btree_gin lets a GIN index hold the project (and type) beside the words and tags, so the index
-- alone narrows to the matching rows.
--
-- Conditional, like 0004: btree_gin is a contrib extension (trusted: a database owner may create it)
-- shipped with PostgreSQL's contrib packages, RDS, Cloud SQL, Supabase, and loaded by the product's
-- PGlite. Where it cannot be created, 0003's index stays and search is the same, only slower.

CREATE FUNCTION ensure_search_index() RETURNS text LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'btree_gin') THEN
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'btree_gin') THEN
      RETURN 'btree_gin not installed';
    END IF;
    BEGIN
      CREATE EXTENSION btree_gin WITH SCHEMA assets;
    EXCEPTION WHEN OTHERS THEN
      RETURN 'btree_gin not enabled: ' || SQLERRM;
    END;
  END IF;
  -- GIN columns are independent (any subset of them is a usable condition): this index also answers
  -- `search_text @@ q` alone (the public scope), so it replaces 0003's.
  CREATE INDEX IF NOT EXISTS assets_search_project_idx ON assets.assets USING gin (project_id, search_text, type, tags);
  DROP INDEX IF EXISTS assets.assets_search_text_idx;
  RETURN 'project search index';
END
$fn$;

SELECT ensure_search_index();

-- The statistics (1) exist from the next ANALYZE: take one now rather than wait for autovacuum.
ANALYZE assets;
