-- One-shot agent tasks live in `tasks` (kind 'agent'): what the agent did, step by step, and what it cost.
ALTER TABLE tasks ADD COLUMN steps jsonb;
ALTER TABLE tasks ADD COLUMN usage jsonb;
ALTER TABLE tasks ADD COLUMN stopped_at timestamptz;
