-- asset-service: a vector index for POST /v1/search/assets' image similarity where the database has
-- pgvector (docs/search.md, "Similar images"). Conditional: on a PostgreSQL without the extension
-- (Debian's PostgreSQL 15 here) nothing but the function below is created, and search keeps its exact
-- scan. The asset service reads which of the two it has at start (readiness shows it).
--
-- No vector column: the index is on the expression embedding::vector(1024) over the rows that have
-- an embedding, so the table, its writers and its Prisma schema are the same with or without
-- pgvector. HNSW with cosine distance: stored embeddings are unit length, so the distance is
-- 1 - cosine, the exact scan's score.

-- The count of a project's embedded assets (an image search's total) and the exact scan read these
-- rows; `cardinality(embedding)` detoasts each 4 KB array, so a partial index names them instead.
CREATE INDEX assets_embedded_idx ON assets (project_id, created_at DESC, id DESC)
  WHERE cardinality(embedding) = 1024;

-- Creates pgvector (when the database offers it and this role may) and the HNSW index; answers what
-- it did. Idempotent: after installing pgvector into a database migrated without it, run
-- `SELECT assets.ensure_embedding_index();` once (it builds the index: minutes for millions of rows,
-- writes to assets wait meanwhile).
CREATE FUNCTION ensure_embedding_index() RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  vector_schema text;
BEGIN
  SELECT n.nspname INTO vector_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector';
  IF vector_schema IS NULL THEN
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
      RETURN 'pgvector not installed';
    END IF;
    BEGIN
      CREATE EXTENSION vector WITH SCHEMA assets;
    EXCEPTION WHEN OTHERS THEN
      -- Typically insufficient_privilege on managed PostgreSQL: a superuser (RDS: rds_superuser) runs
      -- CREATE EXTENSION vector, then this function again.
      RETURN 'pgvector not enabled: ' || SQLERRM;
    END;
    vector_schema := 'assets';
  END IF;
  -- The graph of 1024-number vectors is built in memory when it fits (else on disk, slower).
  PERFORM set_config('maintenance_work_mem', '256MB', true);
  EXECUTE format(
    'CREATE INDEX IF NOT EXISTS assets_embedding_hnsw_idx ON assets.assets USING hnsw '
    '((embedding::%1$I.vector(1024)) %1$I.vector_cosine_ops) WHERE cardinality(embedding) = 1024',
    vector_schema);
  RETURN 'pgvector hnsw';
END
$fn$;

SELECT ensure_embedding_index();
