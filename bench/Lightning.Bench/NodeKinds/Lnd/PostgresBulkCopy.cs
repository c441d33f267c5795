namespace Lightning.Bench.NodeKinds.Lnd;

/// <summary>
/// Many rows copied into a node's tables on PostgreSQL as a bulk load: in one transaction, the tables' secondary
/// indexes and the UNIQUE constraints no foreign key hangs on are dropped, the rows written with the foreign keys'
/// checks off (<c>session_replication_role = replica</c>: the copies are whole by construction, and the node's own
/// listing checks them after), and each index and constraint made again from its own definition, as it was, by one
/// sort. Primary keys stay (the copies take the next ids: appended). A million invoices took 51–53 s as one statement
/// with every index kept, and 16–17 s so, on PostgreSQL 15 with LND's invoice tables (docs/large-nodes.md#lnds-histories).
/// </summary>
/// <remarks>
/// An index built by one sort is compact (its pages filled to the fill factor), where one grown by a node's inserts
/// over months is not: a node's unique hash index, grown in random order, holds about 30 % more pages. Lookups walk the
/// same depth of tree at these sizes.
/// </remarks>
internal static class PostgresBulkCopy
{
    /// <summary><paramref name="rows"/> (statements, no transaction of their own) wrapped in the transaction that drops and remakes <paramref name="tables"/>' indexes around them.</summary>
    public static string Sql(IReadOnlyList<string> tables, string rows)
    {
        var names = string.Join(", ", tables.Select(t => $"'{t}'"));
        return $"""
            BEGIN;
            SET LOCAL session_replication_role = replica;
            CREATE TEMP TABLE lnb_indexes ON COMMIT DROP AS
              SELECT format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid)) AS make,
                     format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname) AS unmake, 1 AS step
              FROM pg_constraint c
              WHERE c.contype = 'u' AND c.conrelid::regclass::text IN ({names})
                AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = c.conindid)
              UNION ALL
              SELECT pg_get_indexdef(i.indexrelid), format('DROP INDEX %s', i.indexrelid::regclass), 2
              FROM pg_index i
              WHERE i.indrelid::regclass::text IN ({names})
                AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid);
            DO $$ DECLARE r record; BEGIN FOR r IN SELECT unmake FROM lnb_indexes LOOP EXECUTE r.unmake; END LOOP; END $$;
            {rows}
            DO $$ DECLARE r record; BEGIN FOR r IN SELECT make FROM lnb_indexes ORDER BY step LOOP EXECUTE r.make; END LOOP; END $$;
            COMMIT;
            """;
    }

    /// <summary>The copied tables vacuumed and analysed, apart from the copy (VACUUM runs in no transaction).</summary>
    public static string VacuumSql(IReadOnlyList<string> tables) => $"VACUUM (ANALYZE) {string.Join(", ", tables)}";
}
