-- asset-service: full-text search for POST /v1/search/assets (docs/search.md).
-- A generated tsvector over what a person searches by: the name (weight A), the
-- tags (B), the generation prompt and caption (C) and the description (D), with
-- the 'english' configuration (lower-cased, stemmed: cats → cat).

-- array_to_string is only STABLE (it is generic over element types); for text[]
-- it is a pure function, and a generated column needs an IMMUTABLE expression.
CREATE FUNCTION search_tags_text(tags text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN array_to_string(tags, ' ');

ALTER TABLE assets ADD COLUMN search_text tsvector GENERATED ALWAYS AS (
  -- Names are often file names: 'red_lighthouse-2.png' is read as words, not as one file token.
  setweight(to_tsvector('english'::regconfig, regexp_replace(coalesce(name, ''), '[._/-]+', ' ', 'g')), 'A') ||
  setweight(to_tsvector('english'::regconfig, search_tags_text(tags)), 'B') ||
  setweight(to_tsvector('english'::regconfig, coalesce(metadata->>'prompt', '') || ' ' || coalesce(metadata->>'caption', '')), 'C') ||
  setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'D')
) STORED;

-- One GIN index answers `search_text @@ query` for every project (the project
-- condition is then checked on the matching rows).
CREATE INDEX assets_search_text_idx ON assets USING gin (search_text);
