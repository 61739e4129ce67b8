-- asset-service: an HNSW index on the search model's vectors (text-to-image search, docs/search.md)
-- where the database has pgvector. The model and its dimension are known only at run time, so this
-- migration creates only the function that builds the index; asset-service's ModelEmbedder calls it
-- when it first stores vectors of a model, and at start when vectors of the configured model exist
-- (never on a search's path). An operator may call it too: `SELECT
-- assets.ensure_model_embedding_index('clip-vit', 512);`.
--
-- One index per model (and dimension), on the expression model_embedding::vector(D), partial: the
-- rows of that model whose vector has that dimension. Deterministic name (the dimension and a hash
-- of the model name), so every replica asks for the same index; a transaction-scoped advisory lock
-- makes replicas that ask at once build it once (the others wait, then find it). Cosine distance,
-- as migration 0004's image index: stored vectors are unit length, so the distance is 1 - cosine.
-- Writes to assets wait while it is built (a moment when the embedder stores its first batch;
-- minutes at start over millions of existing vectors).
CREATE FUNCTION ensure_model_embedding_index(model text, dims integer) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  vector_schema text;
  index_name text := format('assets_model_embedding_%s_%s_hnsw', dims, left(md5(model), 12));
BEGIN
  SELECT n.nspname INTO vector_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector';
  IF vector_schema IS NULL THEN
    RETURN 'exact scan (pgvector not installed)';
  END IF;
  IF dims IS NULL OR dims < 1 OR dims > 2000 THEN
    -- pgvector's HNSW indexes take vectors of at most 2,000 dimensions.
    RETURN format('exact scan (%s dimensions: pgvector indexes at most 2000)', dims);
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('assets.ensure_model_embedding_index'));
  PERFORM set_config('maintenance_work_mem', '256MB', true);
  EXECUTE format(
    'CREATE INDEX IF NOT EXISTS %2$I ON assets.assets USING hnsw '
    '((model_embedding::%1$I.vector(%3$s)) %1$I.vector_cosine_ops) '
    'WHERE model_embedding_model = %4$L AND cardinality(model_embedding) = %3$s',
    vector_schema, index_name, dims, model);
  RETURN 'pgvector hnsw';
END
$fn$;
