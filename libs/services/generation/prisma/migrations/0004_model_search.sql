-- generation-service: full-text search for POST /v1/search/models (docs/search.md).
-- A generated tsvector over the name (weight A), the tags and capabilities (B),
-- the short description (C) and the description page (D), 'english' configuration.

-- array_to_string is only STABLE (generic over element types); for text[] it is a
-- pure function, and a generated column needs an IMMUTABLE expression.
CREATE FUNCTION search_tags_text(tags text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN array_to_string(tags, ' ');

ALTER TABLE models ADD COLUMN search_text tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, coalesce(name, '')), 'A') ||
  setweight(to_tsvector('english'::regconfig, search_tags_text(tags) || ' ' || search_tags_text(capabilities)), 'B') ||
  setweight(to_tsvector('english'::regconfig, coalesce(short_description, '')), 'C') ||
  setweight(to_tsvector('english'::regconfig, description), 'D')
) STORED;

CREATE INDEX models_search_text_idx ON models USING gin (search_text);
