export { renderWorkbookHtml } from './render-workbook-html';
