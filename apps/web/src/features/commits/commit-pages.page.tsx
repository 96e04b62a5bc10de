/** The commit pages the router loads together: /trend/:user, /commit and /test. */
export { CalendarDemoPage } from './calendar-demo.page.tsx';
export { CommitDetailPage } from './commit-detail.page.tsx';
export { TrendPage } from './trend.page.tsx';
