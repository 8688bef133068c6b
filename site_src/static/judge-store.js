/* judge-store.js — where the judging page (juzgar.js) keeps its jobs and their grades: IndexedDB, each grade in
 * its own transaction that has committed before the next pair shows, and the other tabs told of it
 * (BroadcastChannel). Loaded before juzgar.js. It keeps and passes on; Python (raglab_core.judges) reads the
 * grades, and words and counts everything.
 *
 * Stores: jobs {id, job, notes, created}; texts {id, texts}; state {id, position}; grades {job, key, grade, at}.
 * A grade is {grade, at} (raglab_core.judges' grades: `grade` null for one undone, `at` its moment, Date.now());
 * the time spent is Python's, from those moments: nothing else about time is kept.
 */
(() => {
  "use strict";

  /**
   * Whether `entry` replaces `held` (either may be missing): the later moment wins, a tie keeps the held one, so
   * an older grade never overwrites a newer one, an undo included — raglab_core.judges' merge_grades, pair by
   * pair (the browser tests hold the two to the same answers).
   */
  const newer = (held, entry) => !held || entry.at > held.at;

  /** `grades` and `incoming` together ({key: {grade, at}} each), as raglab_core.judges' merge_grades. */
  function merged(grades, incoming) {
    const result = { ...grades };
    for (const [key, entry] of Object.entries(incoming)) if (newer(result[key], entry)) result[key] = entry;
    return result;
  }

  function openDatabase() {
    return new Promise((resolve) => {
      let request;
      try {
        request = indexedDB.open("raglab-juzgar", 1);
      } catch (error) {
        console.warn("raglab: IndexedDB unavailable", error);
        return resolve(null);
      }
      request.onupgradeneeded = () => {
        const base = request.result;
        base.createObjectStore("jobs", { keyPath: "id" });
        base.createObjectStore("texts", { keyPath: "id" });
        base.createObjectStore("state", { keyPath: "id" });
        base.createObjectStore("grades", { keyPath: ["job", "key"] }).createIndex("job", "job");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => {
        console.warn("raglab: IndexedDB refused", request.error);
        resolve(null);
      };
      request.onblocked = () => resolve(null);
    });
  }

  const requestValue = (request) =>
    new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });

  /**
   * The store, once opened. `failed(kind)` is told when the browser keeps nothing ("failed": refused, or a write
   * that did not commit; "full": out of space), after which the store keeps nothing more; `heard(job, key, entry)`
   * gets another tab's grade. Every method works without a database: it then keeps nothing and finds nothing.
   */
  async function open({ failed, heard }) {
    let db = await openDatabase();
    const channel = "BroadcastChannel" in window ? new BroadcastChannel("raglab-juzgar") : null;
    if (channel) {
      channel.addEventListener("message", (event) => {
        const { job, key, grade, at } = event.data || {};
        if (job && key) heard(job, key, { grade, at });
      });
    }

    /** Run `work(transaction)` on `stores`; resolves with its result once the transaction has committed. */
    function transact(stores, mode, work) {
      return new Promise((resolve, reject) => {
        const transaction = db.transaction(stores, mode, { durability: "strict" });
        const result = work(transaction);
        transaction.oncomplete = () => resolve(result);
        transaction.onerror = transaction.onabort = () => reject(transaction.error);
      });
    }

    /** A write; one that fails is said, and the store keeps nothing more. */
    async function write(stores, work) {
      if (!db) return;
      try {
        await transact(stores, "readwrite", work);
      } catch (error) {
        console.warn("raglab: the judging page's store could not write", error);
        db = null;
        failed(error && error.name === "QuotaExceededError" ? "full" : "failed");
      }
    }

    const read = (store, key) => transact([store], "readonly", (transaction) => requestValue(transaction.objectStore(store).get(key)));

    async function grades(id) {
      if (!db) return {};
      const rows = await transact(["grades"], "readonly", (transaction) =>
        requestValue(transaction.objectStore("grades").index("job").getAll(id))
      );
      return Object.fromEntries(rows.map((row) => [row.key, { grade: row.grade, at: row.at }]));
    }

    if (!db) failed("failed");
    return {
      /** Every stored job: [{record: {id, job, notes, created}, grades}]. */
      async jobs() {
        if (!db) return [];
        const records = await transact(["jobs"], "readonly", (transaction) => requestValue(transaction.objectStore("jobs").getAll()));
        return Promise.all(records.map(async (record) => ({ record, grades: await grades(record.id) })));
      },
      /** Job `id` as stored: {job, notes, texts, grades, position} (position undefined when none was kept). */
      async job(id) {
        const [record, texts, state, kept] = await Promise.all([read("jobs", id), read("texts", id), read("state", id), grades(id)]);
        return { job: record.job, notes: record.notes || [], texts: texts.texts, grades: kept, position: state ? state.position : undefined };
      },
      /** Keep a new job, its texts and the grades it came with. */
      add(job, texts, notes, given) {
        return write(["jobs", "texts", "state", "grades"], (transaction) => {
          transaction.objectStore("jobs").put({ id: job.id, job, notes, created: Date.now() });
          transaction.objectStore("texts").put({ id: job.id, texts });
          for (const [key, entry] of Object.entries(given)) transaction.objectStore("grades").put({ job: job.id, key, ...entry });
        });
      },
      /** Keep a grade (or its undoing) unless the one stored is newer, and the position, in one transaction; tell the other tabs. */
      async grade(id, key, entry, position) {
        await write(["grades", "state"], (transaction) => {
          const store = transaction.objectStore("grades");
          requestValue(store.get([id, key])).then((old) => {
            if (newer(old, entry)) store.put({ job: id, key, ...entry });
          });
          transaction.objectStore("state").put({ id, position });
        });
        if (channel) channel.postMessage({ job: id, key, ...entry });
      },
      position(id, position) {
        return write(["state"], (transaction) => transaction.objectStore("state").put({ id, position }));
      },
      remove(id) {
        return write(["jobs", "texts", "state", "grades"], (transaction) => {
          for (const store of ["jobs", "texts", "state"]) transaction.objectStore(store).delete(id);
          transaction.objectStore("grades").delete(IDBKeyRange.bound([id, ""], [id, "\uffff"]));
        });
      },
    };
  }

  window.raglabJudgeStore = { open, newer, merged };
})();
