import { describeMode, describeModelMode, modelIndexName, modelSearchMode, vectorSearchMode } from './vector-index';

describe('vectorSearchMode: what /readyz says of image similarity', () => {
  const row = { available: true, schema: 'assets', version: '0.8.7', indexed: true };

  it.each([
    [{ ...row }, 'pgvector hnsw (pgvector 0.8.7)'],
    [{ ...row, version: '1.0.0' }, 'pgvector hnsw (pgvector 1.0.0)'],
    [{ available: false, schema: null, version: null, indexed: false }, 'exact scan (pgvector not installed)'],
    [{ ...row, schema: null, version: null, indexed: false }, 'exact scan (pgvector available, not enabled: CREATE EXTENSION vector, then SELECT assets.ensure_embedding_index())'],
    [{ ...row, indexed: false }, 'exact scan (pgvector 0.8.7 installed, no index: SELECT assets.ensure_embedding_index())'],
    [{ ...row, version: '0.7.4' }, 'exact scan (pgvector 0.7.4 installed: the index path needs 0.8.0 or later)'],
  ])('%j → %s', (catalog, detail) => {
    expect(describeMode(vectorSearchMode(catalog))).toBe(detail);
  });

  it('names the schema pgvector lives in, for the index path to qualify its type and operator', () => {
    expect(vectorSearchMode({ ...row, schema: 'extensions' })).toEqual({ kind: 'hnsw', schema: 'extensions', version: '0.8.7' });
  });
});

describe("modelSearchMode: what /readyz says of the search model's similarity", () => {
  const row = { available: true, schema: 'assets', version: '0.8.7', indexed: false, modelIndexes: [modelIndexName('clip', 512)] };

  it.each([
    [row, 512, 'pgvector hnsw (512 dimensions)'],
    [row, 768, "exact scan (no index yet: SELECT assets.ensure_model_embedding_index('clip', 768))"],
    [row, undefined, 'exact scan (no vector of the model stored yet)'],
    [row, 3072, 'exact scan (3072 dimensions: pgvector indexes at most 2000)'],
    [{ ...row, version: '0.7.4' }, 512, 'exact scan (pgvector 0.7.4 installed: the index path needs 0.8.0 or later)'],
    [{ available: false, schema: null, version: null, indexed: false, modelIndexes: [] }, 512, 'exact scan (pgvector not installed)'],
  ])('%j, %s dimensions → %s', (catalog, dims, detail) => {
    expect(describeModelMode(modelSearchMode(catalog, 'clip', dims))).toBe(detail);
  });

});
