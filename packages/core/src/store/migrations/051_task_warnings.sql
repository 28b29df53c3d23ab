-- Trust and cost (docs/api.md, "Gleaner extensions"): the grounding policy's warnings (flag, drop)
-- of an asynchronous extraction or agent task, shown in its status body and callback.
ALTER TABLE tasks ADD COLUMN warnings jsonb;
