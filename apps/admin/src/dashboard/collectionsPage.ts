import type { CollectionView } from '../adminService.js';
import { html, type SafeHtml } from './html.js';
import { formatNumber, timeOf } from './layout.js';

/** Read-only overview: every collection with its item count and sortable fields. */
export const collectionsPage = (collections: readonly CollectionView[]): SafeHtml => html`<h1>Collections</h1>
<section class="panel" aria-labelledby="collections-title">
  <h2 id="collections-title" class="sr-only">All collections</h2>
  ${
    collections.length === 0
      ? html`<p class="empty">No collections yet. Create them through the admin API (<code>POST /admin/collections</code>) or <code>pubstream import</code>.</p>`
      : html`<table>
    <thead><tr><th scope="col">Slug</th><th scope="col">Name</th><th scope="col" class="num">Items</th><th scope="col">Sortable fields</th><th scope="col">Updated (UTC)</th></tr></thead>
    <tbody>${collections.map(
      (collection) => html`<tr>
      <th scope="row"><code>${collection.slug}</code></th>
      <td>${collection.name}</td>
      <td class="num">${formatNumber(collection.itemCount)}</td>
      <td>${
        collection.sortableFields.length === 0
          ? html`<span class="muted">Built-in only (createdAt, updatedAt, dataId)</span>`
          : html`<span class="domains">${collection.sortableFields.map((field) => html`<code>${field.name}: ${field.type}</code>`)}</span>`
      }</td>
      <td>${timeOf(collection.updatedAt ?? collection.createdAt, '—')}</td>
    </tr>`,
    )}</tbody>
  </table>`
  }
</section>`;
