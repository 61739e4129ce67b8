-- asset-service: a second vector per asset for text-to-image search (docs/search.md, "Text to image"):
-- computed by the search embedding model named in INFERENCE_BACKENDS_FILE (an openai backend's
-- `models.searchEmbedding`, a CLIP-like model that embeds texts and images into one space), filled in
-- the background by asset-service's ModelEmbedder. Its dimension is the model's, known only at run
-- time, so it is `real[]` with no vector index: search scans it exactly.
--
-- model_embedding        the vector (unit length); NULL until computed, or when it could not be
-- model_embedding_model  the model the vector (or the failure) is for: a row whose model is not the
--                        configured one is stale, and embedded again
-- model_embedding_error  why the model could not embed this asset's bytes (not retried for this model)
-- model_embedding_lease  a claim of the embedder (leased work: a replica that dies loses nothing), or
--                        the time a failed attempt is retried after (back-off)
ALTER TABLE assets
  ADD COLUMN model_embedding real[],
  ADD COLUMN model_embedding_model text,
  ADD COLUMN model_embedding_error text,
  ADD COLUMN model_embedding_lease timestamptz(3);

-- The embedder's claims read only what is left to embed, in index order, so a claim costs a batch's
-- rows whether 10 or 10 million wait, and nothing when none does. The predicates are `embeddable()`
-- of image-embedding.ts, written out as the claims write them (model-embeddings.repository.ts).
-- Never embedded (new assets, and every picture when a model is first configured): newest first.
CREATE INDEX assets_model_embedding_new_idx ON assets (created_at DESC, id DESC)
  WHERE kind = 'image' AND mime_type <> 'image/svg+xml'
    AND type <> ALL (ARRAY['detection', 'segmentation-mask', 'texture-height', 'texture-normal', 'texture-smoothness',
      'texture-metallic', 'texture-edge', 'texture-ao', '3d-texture-metallic', '3d-texture-normal', '3d-texture-roughness'])
    AND model_embedding_model IS NULL;
-- Embedded by some model: after a model change, the rows of the others (two ranges: < m and > m).
CREATE INDEX assets_model_embedding_model_idx ON assets (model_embedding_model)
  WHERE kind = 'image' AND mime_type <> 'image/svg+xml'
    AND type <> ALL (ARRAY['detection', 'segmentation-mask', 'texture-height', 'texture-normal', 'texture-smoothness',
      'texture-metallic', 'texture-edge', 'texture-ao', '3d-texture-metallic', '3d-texture-normal', '3d-texture-roughness'])
    AND model_embedding_model IS NOT NULL;

-- New assets wake the embedder at once (NOTIFY is sent when the inserting transaction commits, which
-- already notifies the outbox relay: no extra cost at commit). Every way an asset is created inserts here.
CREATE FUNCTION notify_model_embedding() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('assets_model_embedding', '');
  RETURN NULL;
END
$fn$;

CREATE TRIGGER assets_model_embedding_notify AFTER INSERT ON assets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_model_embedding();
