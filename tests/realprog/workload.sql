-- The sqlite3 workload (sqlite_test.sh): an in-memory database, text
-- comparisons under collations (vdbeCompareMemString: indirect tail
-- calls through the collation), sorting, grouping, joins, LIKE, printf,
-- recursive CTEs, triggers and a window function.  Its output is fixed.
CREATE TABLE word(id INTEGER PRIMARY KEY, w TEXT COLLATE NOCASE, n INT);
WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < 4000)
INSERT INTO word(w, n)
	SELECT printf('%s%c%d', substr('AbCdEfGhIjKlMnOpQrStUvWxYz', 1 + i % 23, 3),
		      65 + i % 26, i % 97), i * 7919 % 1009 FROM seq;
CREATE INDEX word_w ON word(w);
CREATE INDEX word_rtrim ON word(w COLLATE RTRIM);
CREATE TABLE log(k TEXT, v INT);
CREATE TRIGGER word_log AFTER UPDATE ON word BEGIN
	INSERT INTO log VALUES (new.w, new.n - old.n);
END;
UPDATE word SET n = n + 1 WHERE w LIKE 'cde%' OR w LIKE '%z4_';
SELECT count(*), count(DISTINCT w), min(w), max(w) FROM word;
SELECT w, n FROM word ORDER BY w COLLATE NOCASE DESC, n LIMIT 12;
SELECT w COLLATE BINARY, count(*) FROM word GROUP BY w COLLATE BINARY
	HAVING count(*) > 1 ORDER BY 2 DESC, 1 LIMIT 10;
SELECT a.w, b.w FROM word a JOIN word b ON a.w = b.w COLLATE NOCASE AND a.id < b.id
	ORDER BY a.id, b.id LIMIT 8;
SELECT k, sum(v), group_concat(v, '+') FROM log GROUP BY k ORDER BY k LIMIT 10;
SELECT w, n, rank() OVER (PARTITION BY substr(w, 1, 2) ORDER BY n DESC) AS r
	FROM word WHERE n < 40 ORDER BY w, r LIMIT 15;
SELECT upper(w), lower(w), length(w), instr(w, 'd'), replace(w, 'e', 'E')
	FROM word WHERE id % 500 = 0 ORDER BY id;
SELECT count(*) FROM word a, word b WHERE a.w < b.w AND a.id < 300 AND b.id < 300;
SELECT total(n), avg(n), printf('%.3f', stdev) FROM word,
	(SELECT 1.5 AS stdev) WHERE w GLOB '*[Xx]*';
