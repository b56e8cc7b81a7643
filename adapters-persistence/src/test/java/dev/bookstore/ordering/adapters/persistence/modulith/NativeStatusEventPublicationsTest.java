package dev.bookstore.ordering.adapters.persistence.modulith;

import static org.assertj.core.api.Assertions.assertThat;

import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.update.Update;
import org.junit.jupiter.api.Test;

/**
 * The registry's insert and state changes are single-table statements both databases speak (SQL Server's V1 has the same
 * table and column names): no vendor syntax, one row by its primary key. Run against PostgreSQL by
 * {@code CustomerOrderSummaryIT}; SQL Server by the SQL Server ITs where Docker runs.
 */
class NativeStatusEventPublicationsTest {

    @Test
    void theInsertNamesEveryColumnTheEntityWritesForANewPublication() throws Exception {
        Insert insert = (Insert) CCJSqlParserUtil.parse(NativeStatusEventPublications.INSERT);

        assertThat(insert.getTable().getName()).isEqualTo("event_publication");
        assertThat(insert.getColumns()).extracting(Column::getColumnName).containsExactly("id", "listener_id",
                "event_type", "serialized_event", "publication_date", "status", "completion_attempts",
                "last_resubmission_date");
        assertThat(insert.getValues().getExpressions()).hasSize(8);
        // the column left out is the one a new publication has no value for
        assertThat(NativeStatusEventPublications.INSERT).doesNotContain("completion_date");
        assertPortable(NativeStatusEventPublications.INSERT);
    }

    @Test
    void theStatusUpdateChangesOneRowByIdAndOnlyWhenTheStatusDiffers() throws Exception {
        Update update = (Update) CCJSqlParserUtil.parse(NativeStatusEventPublications.UPDATE_STATUS);

        assertThat(update.getTable().getName()).isEqualTo("event_publication");
        assertThat(update.getUpdateSets()).hasSize(1);
        assertThat(update.getUpdateSets().get(0).getColumns().get(0).getColumnName()).isEqualTo("status");
        assertThat(update.getWhere().toString()).isEqualTo("id = ? AND status <> ?");
        assertPortable(NativeStatusEventPublications.UPDATE_STATUS);
    }

    @Test
    void completionDeletesOneRowById() throws Exception {
        assertDeletesPublicationsWhere(NativeStatusEventPublications.DELETE_BY_ID, "id = ?");
    }

    @Test
    void aListenersCompletionDeletesOneRowByIdAndListener() throws Exception {
        assertDeletesPublicationsWhere(NativeStatusEventPublications.DELETE_HANDED_OVER,
                "id = ? AND listener_id = ?");
    }

    @Test
    void onPostgresAListenersCompletionSetsItsTransactionsCommitAsynchronousOnlyWhereItDeletedTheRow()
            throws Exception {
        String sql = NativeStatusEventPublications.DELETE_HANDED_OVER_COMMITTING_ASYNCHRONOUSLY;
        Select select = (Select) CCJSqlParserUtil.parse(sql);

        // the same DELETE as on SQL Server, returning a row per publication deleted
        assertThat(select.getWithItemsList()).singleElement().asString().isEqualTo("completed AS ("
                + NativeStatusEventPublications.DELETE_HANDED_OVER + " RETURNING id)");
        // for each such row, this transaction's (is_local true) commit without a wait for the WAL flush
        PlainSelect setConfig = select.getPlainSelect();
        assertThat(setConfig.getFromItem().toString()).isEqualTo("completed");
        assertThat(setConfig.getSelectItems()).singleElement().asString()
                .isEqualTo("set_config('synchronous_commit', 'off', true)");
        assertThat(setConfig.getWhere()).isNull();
    }

    @Test
    void aCompletionByEventAndListenerDeletesThatListenersRowsOfThatEvent() throws Exception {
        assertDeletesPublicationsWhere(NativeStatusEventPublications.DELETE_BY_EVENT_AND_LISTENER,
                "serialized_event = ? AND listener_id = ?");
    }

    /** A portable {@code DELETE} from {@code event_publication} with exactly this condition. */
    private static void assertDeletesPublicationsWhere(String sql, String where) throws Exception {
        Delete delete = (Delete) CCJSqlParserUtil.parse(sql);

        assertThat(delete.getTable().getName()).isEqualTo("event_publication");
        assertThat(delete.getWhere().toString()).isEqualTo(where);
        assertPortable(sql);
    }

    private static void assertPortable(String sql) {
        assertThat(sql).doesNotContainPattern("(?i)\\bLIMIT\\b|\\bTOP\\b|::|now\\(|RETURNING|OUTPUT|\\bILIKE\\b");
    }
}
