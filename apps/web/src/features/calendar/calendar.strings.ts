/** Chinese strings of the commit calendar. */
export const calendarText = {
  previous: '上个月',
  next: '下个月',
  previousYear: '上一年',
  nextYear: '下一年',
  today: '今天',
  month: '月',
  year: '年',
  monthTitle: (year: number, month: number) => `${year}年${month}月`,
  yearTitle: (year: number) => `${year}年`,
  monthName: (month: number) => `${month}月`,
  weekdays: ['一', '二', '三', '四', '五', '六', '日'],
  total: (n: number) => `共 ${n} 条`,
  more: (n: number) => `+${n}`,
  noRecords: '无记录',
} as const;
