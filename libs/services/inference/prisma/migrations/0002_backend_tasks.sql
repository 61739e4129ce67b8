-- Work a backend (an inference server: ComfyUI…) runs asynchronously: the worker records its
-- intent (the backend and the submission id it will submit under) before submitting, then the
-- backend's handle (ComfyUI prompt_id) once the backend accepted it. A restarted or taking-over
-- worker resumes the stored handle, or looks the submission up, instead of submitting again.
ALTER TABLE work_items
  ADD COLUMN backend text,
  ADD COLUMN backend_submission text,
  ADD COLUMN backend_handle text,
  ADD COLUMN backend_submitted_at timestamptz(3);
