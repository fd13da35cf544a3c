// prepareAppend: a range grows in place while it is its column's last, and moves to the column's end
// (keeping its elements and order) when another list was appended after it.
#include <gtest/gtest.h>

#include <vector>

#include "core/flat/range_append.h"

namespace proflow::flat {
namespace {

std::vector<int> elements(const std::vector<int>& column, Range r) {
  return {column.begin() + r.begin, column.begin() + r.end()};
}

TEST(RangeAppend, EmptyRangeStartsAtTheColumnEnd) {
  std::vector<int> column = {7, 8};
  Range r{0, 0};
  prepareAppend(column, r);
  column.push_back(1);
  ++r.size;
  EXPECT_EQ(r.begin, 2u);
  EXPECT_EQ(elements(column, r), (std::vector<int>{1}));
}

TEST(RangeAppend, LastRangeGrowsInPlace) {
  std::vector<int> column = {7, 1, 2};
  Range r{1, 2};
  prepareAppend(column, r);
  column.push_back(3);
  ++r.size;
  EXPECT_EQ(r.begin, 1u);
  EXPECT_EQ(column.size(), 4u);
  EXPECT_EQ(elements(column, r), (std::vector<int>{1, 2, 3}));
}

TEST(RangeAppend, RangeFollowedByAnotherMovesToTheEnd) {
  std::vector<int> column = {1, 2, 9};  // [0, 2) is ours, 9 belongs to another list
  column.shrink_to_fit();               // the copy must survive the column's reallocation
  Range ours{0, 2}, theirs{2, 1};
  prepareAppend(column, ours);
  column.push_back(3);
  ++ours.size;
  EXPECT_EQ(ours.begin, 3u);
  EXPECT_EQ(elements(column, ours), (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(elements(column, theirs), (std::vector<int>{9}));
}

TEST(RangeAppend, RepeatedMovesKeepEveryElement) {
  std::vector<int> column;
  Range a, b;
  for (int i = 0; i < 100; ++i) {  // two lists appended in turn: each append moves the other's range
    Range& r = i % 2 == 0 ? a : b;
    prepareAppend(column, r);
    column.push_back(i);
    ++r.size;
  }
  std::vector<int> even, odd;
  for (int i = 0; i < 100; ++i) (i % 2 == 0 ? even : odd).push_back(i);
  EXPECT_EQ(elements(column, a), even);
  EXPECT_EQ(elements(column, b), odd);
}

}  // namespace
}  // namespace proflow::flat
