-- How each task and run item was to be fetched with respect to its proxy_country: 'direct',
-- 'proxy:<Country>', 'proxy:random' or 'direct:no proxy for <Country>' (network.unproxiedCountry).
ALTER TABLE tasks ADD COLUMN proxy text;
ALTER TABLE run_items ADD COLUMN proxy text;
